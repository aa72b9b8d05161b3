// SPDX-License-Identifier: GPL-2.0
/*
 * mltcpctl attach CGROUP ALGO / detach CGROUP: the sock_ops program of
 * bpf/mltcp_attach.bpf.c on a cgroup v2, so that every TCP connection its
 * processes open or accept runs ALGO.  The attachment is a bpf_link pinned
 * as MLTCP_ATTACH_DIR/<cgroup id>-<algo>; it outlives mltcpctl, and
 * detach removes the pin, which ends the link.  Connections made before
 * keep their congestion control either way.
 */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <unistd.h>

#include <linux/types.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "mltcp_attach.skel.h"
#include "bpf_ctl.h"

#define MLTCP_ATTACH_DIR	"/sys/fs/bpf/mltcp-attach"
#ifndef CGROUP2_SUPER_MAGIC
#define CGROUP2_SUPER_MAGIC	0x63677270
#endif
#ifndef BPF_FS_MAGIC
#define BPF_FS_MAGIC		0xcafe4a11
#endif

__attribute__((format(printf, 2, 3)))
static int fail(const char *cmd, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "mltcpctl: %s: ", cmd);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	return 1;
}

/* The cgroup's id (its inode on cgroup2), or 0 with a reason printed. */
static unsigned long long cgroup_id(const char *cmd, const char *path)
{
	struct statfs sfs;
	struct stat st;

	if (statfs(path, &sfs) || stat(path, &st)) {
		fail(cmd, "%s: %s", path, strerror(errno));
		return 0;
	}
	if (sfs.f_type != CGROUP2_SUPER_MAGIC || !S_ISDIR(st.st_mode)) {
		fail(cmd, "%s is not a cgroup v2 directory", path);
		return 0;
	}
	return (unsigned long long)st.st_ino;
}

/* Path of the pin of @id's attachment, "" when there is none. */
static void find_pin(unsigned long long id, char *path, size_t len, char *algo, size_t alen)
{
	char prefix[32];
	struct dirent *de;
	DIR *d;

	path[0] = '\0';
	snprintf(prefix, sizeof(prefix), "%llu-", id);
	d = opendir(MLTCP_ATTACH_DIR);
	if (!d)
		return;
	while ((de = readdir(d))) {
		if (strncmp(de->d_name, prefix, strlen(prefix)))
			continue;
		snprintf(path, len, "%s/%s", MLTCP_ATTACH_DIR, de->d_name);
		snprintf(algo, alen, "%s", de->d_name + strlen(prefix));
		break;
	}
	closedir(d);
}

static int quiet(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	if (level == LIBBPF_WARN && getenv("MLTCP_BPF_DEBUG"))
		return vfprintf(stderr, fmt, ap);
	return 0;
}

int mltcpctl_attach(const char *cgroup, const char *algo)
{
	char pin[PATH_MAX], cur[32];
	unsigned long long id;
	struct mltcp_attach *skel;
	struct bpf_link *link;
	struct statfs sfs;
	int cgfd, err;

	libbpf_set_print(quiet);
	if (strlen(algo) >= sizeof(skel->rodata->algo) || strncmp(algo, "mltcp_", 6))
		return fail("attach", "'%s' is not an MLTCP congestion control (mltcp_reno, mltcp_cubic, mltcp_dctcp)",
			    algo);
	if (!mltcpctl_ca_available(algo))
		return fail("attach", "%s is not available: load the modules (modprobe %s) or the BPF backend (mltcpctl bpf load)",
			    algo, algo);
	id = cgroup_id("attach", cgroup);
	if (!id)
		return 1;
	find_pin(id, pin, sizeof(pin), cur, sizeof(cur));
	if (pin[0])
		return fail("attach", "%s is attached to %s already; 'mltcpctl detach %s' first",
			    cgroup, cur, cgroup);
	if (statfs("/sys/fs/bpf", &sfs) || sfs.f_type != BPF_FS_MAGIC)
		if (mount("bpf", "/sys/fs/bpf", "bpf", 0, "mode=0700"))
			return fail("attach", "cannot mount bpffs on /sys/fs/bpf: %s", strerror(errno));
	if (mkdir(MLTCP_ATTACH_DIR, 0700) && errno != EEXIST)
		return fail("attach", "cannot create %s: %s", MLTCP_ATTACH_DIR,
			    errno == EPERM || errno == EACCES ?
			    "permission denied (needs CAP_BPF and CAP_NET_ADMIN: run as root)" :
			    strerror(errno));

	skel = mltcp_attach__open();
	if (!skel)
		return fail("attach", "cannot open the BPF object: %s", strerror(errno));
	strcpy((char *)skel->rodata->algo, algo);
	err = mltcp_attach__load(skel);
	if (err) {
		mltcp_attach__destroy(skel);
		err = -err;
		return fail("attach", "the kernel rejected the sock_ops program: %s",
			    err == EPERM || err == EACCES ?
			    "permission denied (needs CAP_BPF and CAP_NET_ADMIN: run as root)" :
			    strerror(err));
	}
	cgfd = open(cgroup, O_RDONLY | O_DIRECTORY);
	if (cgfd < 0) {
		err = errno;
		mltcp_attach__destroy(skel);
		return fail("attach", "%s: %s", cgroup, strerror(err));
	}
	link = bpf_program__attach_cgroup(skel->progs.mltcp_attach, cgfd);
	close(cgfd);
	if (!link) {
		err = errno;
		mltcp_attach__destroy(skel);
		return fail("attach", "cannot attach to %s: %s", cgroup, strerror(err));
	}
	snprintf(pin, sizeof(pin), "%s/%llu-%s", MLTCP_ATTACH_DIR, id, algo);
	if (bpf_link__pin(link, pin)) {
		err = errno;
		bpf_link__destroy(link);
		mltcp_attach__destroy(skel);
		return fail("attach", "cannot pin the attachment as %s: %s", pin, strerror(err));
	}
	bpf_link__destroy(link);	/* the pin keeps it */
	mltcp_attach__destroy(skel);
	printf("mltcp: %s: new TCP connections use %s\n", cgroup, algo);
	return 0;
}

int mltcpctl_detach(const char *cgroup)
{
	char pin[PATH_MAX], algo[32];
	unsigned long long id = cgroup_id("detach", cgroup);

	if (!id)
		return 1;
	find_pin(id, pin, sizeof(pin), algo, sizeof(algo));
	if (!pin[0])
		return fail("detach", "nothing is attached to %s", cgroup);
	if (unlink(pin))
		return fail("detach", "%s: %s", pin,
			    errno == EPERM || errno == EACCES ?
			    "permission denied (run as root)" : strerror(errno));
	rmdir(MLTCP_ATTACH_DIR);	/* when it was the last one */
	printf("mltcp: %s: detached (%s); existing connections keep it\n", cgroup, algo);
	return 0;
}
