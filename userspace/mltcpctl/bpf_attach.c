// SPDX-License-Identifier: GPL-2.0
/*
 * mltcpctl attach CGROUP ALGO / detach CGROUP / attach: the programs of
 * bpf/mltcp_attach.bpf.c on a cgroup v2, so that every TCP connection its
 * processes open or accept runs ALGO (chosen before the SYN, or at listen():
 * see that file).  The attachment is three bpf_links (cgroup/connect4,
 * cgroup/connect6, sock_ops) pinned in the directory
 * MLTCP_ATTACH_DIR/<cgroup id>-<algo>; they outlive mltcpctl, and detach
 * removes the pins, which ends the links.  Connections made before keep
 * their congestion control either way.  `attach` alone lists the
 * attachments with the programs' counters.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
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
#include "output.h"

#define MLTCP_ATTACH_DIR	"/sys/fs/bpf/mltcp-attach"
/* the algorithm DCTCP runs without ECN, for connections that did not negotiate it */
#define MLTCP_DCTCP_NOECN	"mltcp_reno"

/* the pins of one attachment, in its directory */
static const char *const link_names[] = { "connect4", "connect6", "sockops" };
#define NLINKS	(sizeof(link_names) / sizeof(link_names[0]))
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

/* The counters of bpf/mltcp_attach.bpf.c (its .bss) */
struct attach_counters {
	unsigned long long switched;
	unsigned long long noecn;
	unsigned long long failed;
};

/* The .bss of the program behind the link pinned at @lpin; -1 with errno if none. */
static int read_bss(const char *lpin, struct mltcp_attach__bss *bss)
{
	struct bpf_link_info li = {};
	struct bpf_prog_info pi = {};
	__u32 len, ids[8], i;
	int lfd, pfd = -1, mfd, err = ENOENT;

	lfd = bpf_obj_get(lpin);
	if (lfd < 0)
		return -1;
	len = sizeof(li);
	if (bpf_obj_get_info_by_fd(lfd, &li, &len)) {
		err = errno;
		goto out;
	}
	pfd = bpf_prog_get_fd_by_id(li.prog_id);
	if (pfd < 0) {
		err = errno;
		goto out;
	}
	len = sizeof(pi);
	pi.nr_map_ids = sizeof(ids) / sizeof(ids[0]);
	pi.map_ids = (__u64)(unsigned long)ids;
	if (bpf_obj_get_info_by_fd(pfd, &pi, &len)) {
		err = errno;
		goto out;
	}
	for (i = 0; i < pi.nr_map_ids && i < sizeof(ids) / sizeof(ids[0]); i++) {
		struct bpf_map_info mi = {};
		size_t n;
		__u32 zero = 0;

		mfd = bpf_map_get_fd_by_id(ids[i]);
		if (mfd < 0)
			continue;
		len = sizeof(mi);
		n = 0;
		if (!bpf_obj_get_info_by_fd(mfd, &mi, &len))
			n = strlen(mi.name);
		/* an older program's .bss has other members: not read */
		if (n >= 4 && !strcmp(mi.name + n - 4, ".bss") &&
		    mi.value_size == sizeof(*bss)) {
			err = bpf_map_lookup_elem(mfd, &zero, bss) ? errno : 0;
			close(mfd);
			goto out;
		}
		close(mfd);
	}
out:
	if (pfd >= 0)
		close(pfd);
	close(lfd);
	errno = err;
	return err ? -1 : 0;
}

/* The counters of the attachment pinned at @pin; -1 when it has none readable. */
static int read_counters(const char *pin, struct attach_counters *c)
{
	char lpin[PATH_MAX + 16];
	struct mltcp_attach__bss bss;

	snprintf(lpin, sizeof(lpin), "%s/sockops", pin);
	if (read_bss(lpin, &bss))
		return -1;
	c->switched = bss.switched;
	c->noecn = bss.noecn;
	c->failed = bss.failed;
	return 0;
}

/*
 * Removes the attachment pinned at @path (which ends its links): the
 * directory of its links, or the single sock_ops link an older mltcpctl
 * pinned as a file.  0 or -1 with errno.
 */
static int remove_pins(const char *path)
{
	char lpin[PATH_MAX + 16];
	struct stat st;
	size_t i;

	if (lstat(path, &st))
		return -1;
	if (!S_ISDIR(st.st_mode))
		return unlink(path);
	for (i = 0; i < NLINKS; i++) {
		snprintf(lpin, sizeof(lpin), "%s/%s", path, link_names[i]);
		if (unlink(lpin) && errno != ENOENT)
			return -1;
	}
	return rmdir(path);
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
	struct bpf_program *progs[NLINKS];
	unsigned long long id;
	struct mltcp_attach *skel;
	struct statfs sfs;
	int cgfd, err;
	size_t i;

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
	if (!strcmp(algo, "mltcp_dctcp"))
		strcpy((char *)skel->rodata->noecn_algo, MLTCP_DCTCP_NOECN);
	err = mltcp_attach__load(skel);
	if (err) {
		mltcp_attach__destroy(skel);
		err = -err;
		return fail("attach", "the kernel rejected the cgroup programs: %s",
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
	progs[0] = skel->progs.mltcp_attach_connect4;
	progs[1] = skel->progs.mltcp_attach_connect6;
	progs[2] = skel->progs.mltcp_attach;
	snprintf(pin, sizeof(pin), "%s/%llu-%s", MLTCP_ATTACH_DIR, id, algo);
	if (mkdir(pin, 0700)) {
		err = errno;
		close(cgfd);
		mltcp_attach__destroy(skel);
		return fail("attach", "cannot create %s: %s", pin, strerror(err));
	}
	/* the links end with their pins: a failure part way removes them all */
	for (i = 0; i < NLINKS; i++) {
		char lpin[PATH_MAX + 16];
		struct bpf_link *link = bpf_program__attach_cgroup(progs[i], cgfd);

		if (!link) {
			err = errno;
			remove_pins(pin);
			close(cgfd);
			mltcp_attach__destroy(skel);
			return fail("attach", "cannot attach %s to %s: %s", link_names[i], cgroup,
				    strerror(err));
		}
		snprintf(lpin, sizeof(lpin), "%s/%s", pin, link_names[i]);
		if (bpf_link__pin(link, lpin)) {
			err = errno;
			bpf_link__destroy(link);
			remove_pins(pin);
			close(cgfd);
			mltcp_attach__destroy(skel);
			return fail("attach", "cannot pin the attachment as %s: %s", lpin,
				    strerror(err));
		}
		bpf_link__destroy(link);	/* the pin keeps it */
	}
	close(cgfd);
	mltcp_attach__destroy(skel);
	printf("mltcp: %s: new TCP connections use %s%s\n", cgroup, algo,
	       strcmp(algo, "mltcp_dctcp") ? "" : " (Reno where ECN is not negotiated)");
	return 0;
}

int mltcpctl_detach(const char *cgroup)
{
	char pin[PATH_MAX], algo[32];
	unsigned long long id = cgroup_id("detach", cgroup);
	struct attach_counters c;
	bool have;

	if (!id)
		return 1;
	find_pin(id, pin, sizeof(pin), algo, sizeof(algo));
	if (!pin[0])
		return fail("detach", "nothing is attached to %s", cgroup);
	have = !read_counters(pin, &c);
	if (remove_pins(pin))
		return fail("detach", "%s: %s", pin,
			    errno == EPERM || errno == EACCES ?
			    "permission denied (run as root)" : strerror(errno));
	rmdir(MLTCP_ATTACH_DIR);	/* when it was the last one */
	printf("mltcp: %s: detached (%s); existing connections keep it\n", cgroup, algo);
	if (have)
		printf("mltcp: %s: %llu switched, %llu without ECN, %llu refused\n", cgroup,
		       c.switched, c.noecn, c.failed);
	return 0;
}

/* cgroup_path(): the search of nftw() for a cgroup's inode */
static unsigned long long want_ino;
static char found_path[PATH_MAX];

static int match_ino(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)ftw;
	if (flag != FTW_D || (unsigned long long)st->st_ino != want_ino)
		return 0;
	snprintf(found_path, sizeof(found_path), "%s", path);
	return 1;
}

/* The path of the cgroup v2 directory whose id is @id, or "" when it is gone. */
static const char *cgroup_path(unsigned long long id)
{
	char line[PATH_MAX + 256], dir[PATH_MAX], type[64];
	FILE *f = fopen("/proc/self/mounts", "r");

	found_path[0] = '\0';
	if (!f)
		return found_path;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%*s %4095s %63s", dir, type) != 2 || strcmp(type, "cgroup2"))
			continue;
		want_ino = id;
		nftw(dir, match_ino, 16, FTW_PHYS | FTW_MOUNT);
		break;
	}
	fclose(f);
	return found_path;
}

int mltcpctl_attach_list(const struct mltcpctl_out *o)
{
	struct attach_counters c;
	char pin[PATH_MAX];
	struct dirent *de;
	int n = 0;
	DIR *d;

	d = opendir(MLTCP_ATTACH_DIR);
	if (!d && errno != ENOENT)
		return fail("attach", "%s: %s", MLTCP_ATTACH_DIR,
			    errno == EPERM || errno == EACCES ?
			    "permission denied (run as root)" : strerror(errno));
	if (o->json)
		fputs(o->pretty ? "[\n" : "[", o->f);
	while (d && (de = readdir(d))) {
		unsigned long long id;
		const char *algo, *path;
		char *end;
		bool have;

		id = strtoull(de->d_name, &end, 10);
		if (end == de->d_name || *end != '-')
			continue;
		algo = end + 1;
		path = cgroup_path(id);
		snprintf(pin, sizeof(pin), "%s/%s", MLTCP_ATTACH_DIR, de->d_name);
		have = !read_counters(pin, &c);
		if (o->json) {
			/* cgroup paths and algorithm names need no JSON escapes */
			fprintf(o->f, "%s%s", n ? "," : "", o->pretty ? (n ? "\n  " : "  ") : "");
			fprintf(o->f, "{\"cgroup\":\"%s\",\"cgroup_id\":%llu,\"algo\":\"%s\"",
				path, id, algo);
			if (have)
				fprintf(o->f, ",\"switched\":%llu,\"without_ecn\":%llu,\"refused\":%llu",
					c.switched, c.noecn, c.failed);
			fputc('}', o->f);
		} else {
			fprintf(o->f, "%s %s", path[0] ? path : "(cgroup gone)", algo);
			if (have)
				fprintf(o->f, " switched %llu without_ecn %llu refused %llu",
					c.switched, c.noecn, c.failed);
			fputc('\n', o->f);
		}
		n++;
	}
	if (d)
		closedir(d);
	if (o->json)
		fputs(o->pretty ? "\n]\n" : "]\n", o->f);
	return 0;
}
