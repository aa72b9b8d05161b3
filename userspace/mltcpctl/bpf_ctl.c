// SPDX-License-Identifier: GPL-2.0
/*
 * mltcpctl bpf load|unload|status, and show/set on the BPF backend.
 *
 * load registers the three BPF congestion controls of bpf/mltcp.bpf.c
 * (embedded here as a libbpf skeleton) and pins every map under
 * MLTCP_BPF_PIN_DIR, so that they outlive this process: a registered
 * struct_ops stays registered until it is unregistered (unload), and the
 * pins let libmltcp and mltcpctl find the maps.  Nothing is left behind
 * when load fails: what was registered is unregistered, what was pinned
 * unpinned.
 */
#include <endian.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/utsname.h>
#include <unistd.h>
#include <zlib.h>

#include <linux/types.h>
#include <bpf/bpf.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>

#include "mltcp_core.h"
#include "mltcp_bpf.h"
#include "mltcp_bpf_params.h"
#include "mltcp_bpf_info.h"
#include "mltcp.skel.h"
#include "mltcp_iter.skel.h"
#include "bpf_ctl.h"

#ifndef BPF_FS_MAGIC
#define BPF_FS_MAGIC 0xcafe4a11
#endif

#define BPFFS "/sys/fs/bpf"

static const char *const algo_names[MLTCP_BPF_NALGOS] = {
	[MLTCP_BPF_RENO] = "mltcp_reno",
	[MLTCP_BPF_CUBIC] = "mltcp_cubic",
	[MLTCP_BPF_DCTCP] = "mltcp_dctcp",
};

static const char *const data_maps[] = { "params", "counters", "socks", "hints", "sockets" };

__attribute__((format(printf, 1, 2)))
static int fail(const char *fmt, ...)
{
	va_list ap;

	fputs("mltcpctl: bpf: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	return 1;
}

static void pin_path(char *buf, size_t len, const char *name)
{
	snprintf(buf, len, "%s/%s", MLTCP_BPF_PIN_DIR, name);
}

static int open_pinned(const char *name)
{
	char path[PATH_MAX];

	pin_path(path, sizeof(path), name);
	return bpf_obj_get(path);
}

int mltcpctl_bpf_loaded(void)
{
	char path[PATH_MAX];

	pin_path(path, sizeof(path), "params");
	return access(path, F_OK) == 0;
}

/* Is @name in net.ipv4.tcp_available_congestion_control? */
bool mltcpctl_ca_available(const char *name)
{
	char buf[4096], *tok, *save;
	FILE *f = fopen("/proc/sys/net/ipv4/tcp_available_congestion_control", "r");
	bool found = false;

	if (!f)
		return false;
	if (fgets(buf, sizeof(buf), f)) {
		for (tok = strtok_r(buf, " \n", &save); tok; tok = strtok_r(NULL, " \n", &save))
			if (!strcmp(tok, name))
				found = true;
	}
	fclose(f);
	return found;
}

/* The mltcp modules: the core's directory in sysfs, or one algorithm's. */
static bool modules_loaded(void)
{
	size_t i;

	if (!access("/sys/module/mltcp", F_OK))
		return true;
	for (i = 0; i < MLTCP_BPF_NALGOS; i++) {
		char path[64];

		snprintf(path, sizeof(path), "/sys/module/%s", algo_names[i]);
		if (!access(path, F_OK))
			return true;
	}
	return false;
}

/* CONFIG_HZ of the running kernel from its configuration, 0 if unknown. */
static unsigned int read_hz(void)
{
	struct utsname u;
	char paths[4][PATH_MAX], line[256];
	unsigned int hz = 0;
	size_t i;

	if (uname(&u))
		return 0;
	snprintf(paths[0], sizeof(paths[0]), "/boot/config-%s", u.release);
	snprintf(paths[1], sizeof(paths[1]), "/proc/config.gz");
	snprintf(paths[2], sizeof(paths[2]), "/lib/modules/%s/build/.config", u.release);
	snprintf(paths[3], sizeof(paths[3]), "/usr/src/linux-headers-%s/.config", u.release);
	for (i = 0; i < 4 && !hz; i++) {
		/* gzopen() reads plain files as they are */
		gzFile f = gzopen(paths[i], "r");

		if (!f)
			continue;
		while (gzgets(f, line, sizeof(line)))
			if (sscanf(line, "CONFIG_HZ=%u", &hz) == 1)
				break;
		gzclose(f);
	}
	return hz >= 100 && hz <= 1000 ? hz : 0;
}

static int mount_bpffs(void)
{
	struct statfs st;

	if (!statfs(BPFFS, &st) && st.f_type == BPF_FS_MAGIC)
		return 0;
	if (mount("bpf", BPFFS, "bpf", 0, "mode=0700"))
		return -1;
	return 0;
}

static void unpin_all(void)
{
	char path[PATH_MAX];
	size_t i;

	for (i = 0; i < sizeof(data_maps) / sizeof(data_maps[0]); i++) {
		pin_path(path, sizeof(path), data_maps[i]);
		unlink(path);
	}
	for (i = 0; i < MLTCP_BPF_NALGOS; i++) {
		pin_path(path, sizeof(path), algo_names[i]);
		unlink(path);
	}
	rmdir(MLTCP_BPF_PIN_DIR);
}

/* Unregisters a struct_ops map: deleting its only element does that. */
static int unregister_fd(int fd)
{
	int zero = 0;

	if (bpf_map_delete_elem(fd, &zero) && errno != ENOENT)
		return -1;
	return 0;
}

static int why_not(int err, const char *what)
{
	if (err == EPERM || err == EACCES)
		return fail("%s: permission denied: the BPF backend needs CAP_BPF and CAP_NET_ADMIN (run as root)",
			    what);
	return fail("%s: %s", what, strerror(err));
}

static struct mltcp_bpf *skel_open(void)
{
	LIBBPF_OPTS(bpf_object_open_opts, opts);

	return mltcp_bpf__open_opts(&opts);
}

static int libbpf_quiet(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	if (level == LIBBPF_WARN && getenv("MLTCP_BPF_DEBUG"))
		return vfprintf(stderr, fmt, ap);
	return 0;
}

/*
 * MLTCP_BPF_DEBUG=stats: each program's verifier statistics (log level 4: the
 * instructions processed against the limit, the states).  The core is inlined
 * into every hook, so this is how far a change to it is from the budget of
 * the oldest verifier the backend supports (docs/TESTING.md, "The BPF
 * backend's verifier budget").  With a log buffer of its own a failing
 * program keeps only its statistics, so MLTCP_BPF_DEBUG=1 stays the mode
 * that shows why a program was rejected.
 */
#define VERIFIER_STATS_LEN 1024

static bool verifier_stats_wanted(void)
{
	const char *v = getenv("MLTCP_BPF_DEBUG");

	return v && !strcmp(v, "stats");
}

static char *verifier_stats_ask(struct mltcp_bpf *skel)
{
	struct bpf_program *prog;
	char *bufs;
	int n = 0;

	bpf_object__for_each_program(prog, skel->obj)
		n++;
	bufs = calloc(n, VERIFIER_STATS_LEN);
	if (!bufs) {
		fprintf(stderr,
			"mltcpctl: bpf: verifier: no memory for the statistics; loading without them\n");
		return NULL;
	}
	n = 0;
	bpf_object__for_each_program(prog, skel->obj) {
		bpf_program__set_log_buf(prog, bufs + n++ * VERIFIER_STATS_LEN,
					 VERIFIER_STATS_LEN);
		bpf_program__set_log_level(prog, 4);
	}
	return bufs;
}

static void verifier_stats_print(struct mltcp_bpf *skel)
{
	struct bpf_program *prog;

	bpf_object__for_each_program(prog, skel->obj) {
		size_t len;
		const char *log = bpf_program__log_buf(prog, &len);
		const char *line = log ? strstr(log, "processed ") : NULL;

		if (line)
			fprintf(stderr, "mltcpctl: bpf: verifier: %s: %.*s\n",
				bpf_program__name(prog), (int)strcspn(line, "\n"), line);
	}
}

/* Checks what the kernel must have; prints the reason and returns 1 if not. */
static int check_kernel(void)
{
	struct btf *btf;
	bool ok;

	if (access("/sys/kernel/btf/vmlinux", R_OK))
		return fail("load: the kernel has no BTF (/sys/kernel/btf/vmlinux; CONFIG_DEBUG_INFO_BTF=y is needed)");
	btf = btf__load_vmlinux_btf();
	if (!btf)
		return fail("load: cannot read the kernel's BTF: %s", strerror(errno));
	/* the kernel's wrapper type of every struct_ops it accepts from BPF */
	ok = btf__find_by_name_kind(btf, "bpf_struct_ops_tcp_congestion_ops",
				    BTF_KIND_STRUCT) > 0;
	btf__free(btf);
	if (!ok)
		return fail("load: the kernel cannot take a BPF tcp_congestion_ops (no struct_ops support: Linux 5.6+ with CONFIG_BPF_JIT and CONFIG_BPF_SYSCALL)");
	if (modules_loaded())
		return fail("load: the mltcp modules are loaded and own the names mltcp_reno, mltcp_cubic and mltcp_dctcp: unload them first (modprobe -r mltcp_reno mltcp_cubic mltcp_dctcp mltcp), or keep using them");
	return 0;
}

/*
 * The "sockets" iterator (bpf/mltcp_iter.bpf.c) on the algorithms' "socks"
 * map, pinned as a link.  Optional: without it `mltcpctl sockets` is not
 * available on this backend.  Return: 0 or an errno value.
 */
static int load_iter(int socks_fd)
{
	char path[PATH_MAX];
	struct mltcp_iter *it;
	struct bpf_link *link;
	int err = 0;

	it = mltcp_iter__open();
	if (!it)
		return errno;
	if (bpf_map__reuse_fd(it->maps.socks, socks_fd) || mltcp_iter__load(it)) {
		err = errno ? errno : EINVAL;
		goto out;
	}
	link = bpf_program__attach_iter(it->progs.mltcp_sockets, NULL);
	if (!link) {
		err = errno;
		goto out;
	}
	pin_path(path, sizeof(path), "sockets");
	if (bpf_link__pin(link, path))
		err = errno;
	bpf_link__destroy(link);
out:
	mltcp_iter__destroy(it);
	return err;
}

/*
 * The backend's tie-break key, into its read-only data: @key (its first
 * eight bytes k0 as a little-endian word, as the module reads a key), or
 * drawn here.  Fixed for as long as the backend stays loaded.
 */
static int set_tiebreak_key(struct mltcp_bpf *skel, const uint8_t *key)
{
	volatile uint64_t *k = skel->rodata->mltcp_tiebreak_key;
	uint64_t w[2];

	if (key) {
		memcpy(w, key, sizeof(w));
		w[0] = le64toh(w[0]);
		w[1] = le64toh(w[1]);
	} else if (getrandom(w, sizeof(w), 0) != (ssize_t)sizeof(w)) {
		return -1;
	}
	k[0] = w[0];
	k[1] = w[1];
	explicit_bzero(w, sizeof(w));
	return 0;
}

int mltcpctl_bpf_load(const uint8_t *key)
{
	struct bpf_map *ops[MLTCP_BPF_NALGOS];
	struct mltcp_bpf_params p = {
		.fparams = mltcp_params_pack(MLTCP_SLOPE_DEFAULT, MLTCP_INTERCEPT_DEFAULT),
		.idle_ms = MLTCP_IDLE_MS_DEFAULT,
		.mode = MLTCP_MODE_LEARNED,
		.stagger = MLTCP_STAGGER_DEFAULT,
		.decrease = 1,
		.overrun = MLTCP_OVERRUN_DEFAULT,
		.tiebreak_key_given = key != NULL,
	};
	struct bpf_map *m;
	struct mltcp_bpf *skel;
	char path[PATH_MAX];
	char *stats;
	int registered = 0, err, zero = 0, i;
	size_t j;

	libbpf_set_print(libbpf_quiet);
	if (mltcpctl_bpf_loaded())
		return fail("load: the BPF backend is already loaded (%s); 'mltcpctl bpf unload' first",
			    MLTCP_BPF_PIN_DIR);
	if (check_kernel())
		return 1;
	for (i = 0; i < MLTCP_BPF_NALGOS; i++)
		if (mltcpctl_ca_available(algo_names[i]))
			return fail("load: a congestion control named %s is already registered (not by 'mltcpctl bpf load'); unregister it first",
				    algo_names[i]);
	p.hz = read_hz();
	if (!p.hz) {
		p.hz = MLTCP_BPF_HZ_DEFAULT;
		fprintf(stderr, "mltcpctl: bpf: load: the kernel's CONFIG_HZ is unknown (no /boot/config-*, /proc/config.gz); assuming %u\n",
			MLTCP_BPF_HZ_DEFAULT);
	}

	skel = skel_open();
	if (!skel)
		return why_not(errno, "load: cannot open the BPF object");
	if (set_tiebreak_key(skel, key)) {
		err = errno;
		mltcp_bpf__destroy(skel);
		return why_not(err, "load: cannot draw the tie-break's secret (getrandom)");
	}
	stats = verifier_stats_wanted() ? verifier_stats_ask(skel) : NULL;
	err = mltcp_bpf__load(skel);
	if (stats)
		verifier_stats_print(skel);
	free(stats);
	if (err) {
		err = -err;
		mltcp_bpf__destroy(skel);
		if (err == EPERM || err == EACCES)
			return why_not(err, "load");
		return fail("load: the kernel rejected the BPF programs (%s); MLTCP_BPF_DEBUG=1 shows the verifier's log",
			    strerror(err));
	}
	if (bpf_map_update_elem(bpf_map__fd(skel->maps.params), &zero, &p, BPF_ANY)) {
		err = errno;
		mltcp_bpf__destroy(skel);
		return why_not(err, "load: cannot set the parameters");
	}
	if (mount_bpffs() || (mkdir(MLTCP_BPF_PIN_DIR, 0700) && errno != EEXIST)) {
		err = errno;
		mltcp_bpf__destroy(skel);
		return why_not(err, "load: cannot create " MLTCP_BPF_PIN_DIR);
	}
	for (j = 0; j < sizeof(data_maps) / sizeof(data_maps[0]); j++) {
		if (!strcmp(data_maps[j], "sockets"))
			continue;	/* the iterator's link, pinned by load_iter() */
		m = bpf_object__find_map_by_name(skel->obj, data_maps[j]);
		pin_path(path, sizeof(path), data_maps[j]);
		if (!m || bpf_map__pin(m, path)) {
			err = errno;
			goto undo;
		}
	}
	ops[MLTCP_BPF_RENO] = skel->maps.mltcp_reno;
	ops[MLTCP_BPF_CUBIC] = skel->maps.mltcp_cubic;
	ops[MLTCP_BPF_DCTCP] = skel->maps.mltcp_dctcp;
	for (i = 0; i < MLTCP_BPF_NALGOS; i++) {
		struct bpf_link *link;

		pin_path(path, sizeof(path), algo_names[i]);
		if (bpf_map__pin(ops[i], path)) {
			err = errno;
			goto undo;
		}
		link = bpf_map__attach_struct_ops(ops[i]);
		if (!link) {
			err = errno;
			if (err == EEXIST)
				fail("load: %s is registered already: %s", algo_names[i],
				     modules_loaded() ? "the mltcp modules are loaded; unload them first" :
				     "by someone else; unregister it first");
			else
				why_not(err, "load: registering the congestion controls");
			err = 0;
			goto undo;
		}
		/* the registration stays when this process exits */
		bpf_link__disconnect(link);
		bpf_link__destroy(link);
		registered++;
	}
	err = load_iter(bpf_map__fd(skel->maps.socks));
	if (err)
		fprintf(stderr, "mltcpctl: bpf: load: no socket iterator (%s): 'mltcpctl sockets' will not work\n",
			strerror(err));
	mltcp_bpf__destroy(skel);
	for (i = 0; i < MLTCP_BPF_NALGOS; i++)
		if (!mltcpctl_ca_available(algo_names[i]))
			return fail("load: %s registered, but the kernel does not list it", algo_names[i]);
	printf("mltcp: BPF backend loaded: mltcp_reno mltcp_cubic mltcp_dctcp (maps pinned in %s, HZ %u)\n",
	       MLTCP_BPF_PIN_DIR, p.hz);
	return 0;

undo:
	for (i = 0; i < registered; i++)
		unregister_fd(bpf_map__fd(ops[i]));
	unpin_all();
	mltcp_bpf__destroy(skel);
	if (err)
		return why_not(err, "load: cannot pin the maps in " MLTCP_BPF_PIN_DIR);
	return 1;
}

int mltcpctl_bpf_unload(void)
{
	int i, fd, ret = 0, found = 0;

	if (!mltcpctl_bpf_loaded())
		return fail("unload: the BPF backend is not loaded (nothing pinned in %s)",
			    MLTCP_BPF_PIN_DIR);
	for (i = 0; i < MLTCP_BPF_NALGOS; i++) {
		fd = open_pinned(algo_names[i]);
		if (fd < 0) {
			if (errno == EPERM || errno == EACCES)
				return why_not(errno, "unload");
			continue;
		}
		found++;
		if (unregister_fd(fd)) {
			ret = why_not(errno, "unload");
			close(fd);
			return ret;
		}
		close(fd);
	}
	unpin_all();
	if (!found)
		fprintf(stderr, "mltcpctl: bpf: unload: no congestion control was pinned; removed the maps\n");
	/* sockets still using an algorithm keep it until they close */
	printf("mltcp: BPF backend unloaded\n");
	return 0;
}

/* The pinned global parameters, as stored; -1 with errno on failure. */
static int read_pinned_params(struct mltcp_bpf_params *p)
{
	int fd = open_pinned("params"), zero = 0, err;

	if (fd < 0)
		return -1;
	if (bpf_map_lookup_elem(fd, &zero, p)) {
		err = errno;
		close(fd);
		errno = err;
		return -1;
	}
	close(fd);
	return 0;
}

/* What the hooks run on: the map entry as the BPF side clamps it */
int mltcpctl_bpf_get_params(struct mltcpctl_params *out)
{
	struct mltcp_bpf_params p;
	struct mltcp_globals g;

	if (read_pinned_params(&p))
		return -1;
	mltcp_bpf_params_effective(&p, &g);
	memset(out, 0, sizeof(*out));
	out->abi_version = MLTCP_ABI_VERSION;
	out->slope = mltcp_params_slope(g.fparams);
	out->intercept = mltcp_params_intercept(g.fparams);
	out->idle_ms = g.idle_ms;
	out->mode = (uint8_t)g.mode;
	out->decrease = g.decrease ? 1 : 0;
	out->stagger = g.stagger;
	out->overrun = g.overrun;
	/* as the loader recorded it (the key itself is in the programs' read-only data) */
	out->tiebreak_key_set = p.tiebreak_key_given != 0;
	out->has_tiebreak_key_set = true;
	return 0;
}

/*
 * Every value is checked before anything changes (mltcpctl_parse() has
 * checked the ranges; checked again here for the pair slope/intercept);
 * the map entry is replaced as a whole.
 */
int mltcpctl_bpf_set_params(const struct mltcpctl_args *a)
{
	struct mltcp_bpf_params p;
	uint32_t slope, icpt;
	int fd = open_pinned("params"), zero = 0, err = 0;

	if (fd < 0)
		return -1;
	if (bpf_map_lookup_elem(fd, &zero, &p)) {
		err = errno;
		goto out;
	}
	slope = a->set_mask & MLTCPCTL_SET_SLOPE ? a->slope : mltcp_params_slope(p.fparams);
	icpt = a->set_mask & MLTCPCTL_SET_INTERCEPT ? a->intercept :
		mltcp_params_intercept(p.fparams);
	if (!mltcp_slope_valid(slope) || !mltcp_intercept_valid(icpt) ||
	    (a->set_mask & MLTCPCTL_SET_IDLE_MS && !mltcp_idle_ms_valid(a->idle_ms)) ||
	    (a->set_mask & MLTCPCTL_SET_MODE && a->mode > MLTCP_MODE_OFF) ||
	    (a->set_mask & MLTCPCTL_SET_STAGGER && !mltcp_stagger_valid(a->stagger)) ||
	    (a->set_mask & MLTCPCTL_SET_OVERRUN && !mltcp_overrun_valid(a->overrun))) {
		err = EINVAL;
		goto out;
	}
	p.fparams = mltcp_params_pack(slope, icpt);
	if (a->set_mask & MLTCPCTL_SET_IDLE_MS)
		p.idle_ms = a->idle_ms;
	if (a->set_mask & MLTCPCTL_SET_MODE)
		p.mode = a->mode;
	if (a->set_mask & MLTCPCTL_SET_DECREASE)
		p.decrease = a->decrease;
	if (a->set_mask & MLTCPCTL_SET_STAGGER)
		p.stagger = a->stagger;
	if (a->set_mask & MLTCPCTL_SET_OVERRUN)
		p.overrun = a->overrun;
	if (bpf_map_update_elem(fd, &zero, &p, BPF_EXIST))
		err = errno;
out:
	close(fd);
	errno = err;
	return err ? -1 : 0;
}

/*
 * mltcp_dctcp's connections without ECN whose switch to mltcp_reno the kernel
 * refused (bpf/mltcp_dctcp.bpf.h), 0 when the map has no such counter.
 */
static uint64_t noecn_refused;

int mltcpctl_bpf_get_counters(struct mltcpctl_algo **out, size_t *n)
{
	struct mltcpctl_algo *algos;
	struct bpf_map_info info = {};
	__u32 ilen = sizeof(info);
	/* room for a map of another mltcpctl's backend, larger or smaller */
	union {
		struct mltcp_bpf_counters c;
		__u64 raw[16];
	} v;
	int fd = open_pinned("counters"), err;
	unsigned int i;

	if (fd < 0)
		return -1;
	err = bpf_obj_get_info_by_fd(fd, &info, &ilen) ? errno :
	      info.value_size > sizeof(v) ? EINVAL : 0;
	if (err) {
		close(fd);
		errno = err;
		return -1;
	}
	algos = calloc(MLTCP_BPF_NALGOS, sizeof(*algos));
	if (!algos) {
		close(fd);
		errno = ENOMEM;
		return -1;
	}
	noecn_refused = 0;
	for (i = 0; i < MLTCP_BPF_NALGOS; i++) {
		struct mltcp_bpf_counters *c = &v.c;

		memset(&v, 0, sizeof(v));
		if (bpf_map_lookup_elem(fd, &i, &v)) {
			err = errno;
			free(algos);
			close(fd);
			errno = err;
			return -1;
		}
		snprintf(algos[i].name, sizeof(algos[i].name), "%s", algo_names[i]);
		algos[i].sockets = c->sockets;
		algos[i].sockets_total = c->sockets_total;
		algos[i].iters_learned = c->iters_learned;
		algos[i].iters_given = c->iters_given;
		if (info.value_size >= sizeof(*c))
			noecn_refused += c->noecn_refused;
	}
	close(fd);
	*out = algos;
	*n = MLTCP_BPF_NALGOS;
	return 0;
}

int mltcpctl_bpf_status(const struct mltcpctl_out *o)
{
	struct mltcpctl_params p;
	struct mltcpctl_algo *algos = NULL;
	size_t n = 0;
	int i;

	if (!mltcpctl_bpf_loaded()) {
		if (modules_loaded())
			printf("BPF backend: not loaded (the mltcp modules are loaded)\n");
		else
			printf("BPF backend: not loaded\n");
		return 1;
	}
	if (mltcpctl_bpf_get_params(&p) || mltcpctl_bpf_get_counters(&algos, &n))
		return why_not(errno, "status");
	if (!o->json) {
		printf("BPF backend: loaded (%s)\n", MLTCP_BPF_PIN_DIR);
		for (i = 0; i < MLTCP_BPF_NALGOS; i++)
			printf("%s: %s\n", algo_names[i],
			       mltcpctl_ca_available(algo_names[i]) ? "registered" : "NOT registered");
	}
	mltcpctl_print_show(o, &p, algos, n, MLTCPCTL_SCOPE_HOST);
	free(algos);
	if (!o->json)
		printf("mltcp_dctcp without ECN, switches to mltcp_reno refused: %llu\n",
		       (unsigned long long)noecn_refused);
	for (i = 0; i < MLTCP_BPF_NALGOS; i++)
		if (!mltcpctl_ca_available(algo_names[i]))
			return 1;
	return 0;
}

int mltcpctl_bpf_get_sockets(struct mltcpctl_sock **out, size_t *n)
{
	struct mltcp_bpf_sock_rec rec;
	struct mltcp_bpf_params p;
	struct mltcp_globals g;
	struct mltcpctl_sock *socks = NULL, *s;
	size_t cap = 0, cnt = 0;
	int link, it, err = 0;
	ssize_t r;

	if (read_pinned_params(&p))
		return -1;
	mltcp_bpf_params_effective(&p, &g);
	link = open_pinned("sockets");
	if (link < 0) {
		errno = errno == ENOENT ? EOPNOTSUPP : errno;
		return -1;
	}
	it = bpf_iter_create(link);
	err = errno;
	close(link);
	if (it < 0) {
		errno = err;
		return -1;
	}
	err = 0;
	while ((r = read(it, &rec, sizeof(rec))) == (ssize_t)sizeof(rec)) {
		struct mltcp_sock ms;

		if (cnt == cap) {
			struct mltcpctl_sock *ns;

			cap = cap ? cap * 2 : 16;
			ns = realloc(socks, cap * sizeof(*socks));
			if (!ns) {
				err = ENOMEM;
				break;
			}
			socks = ns;
		}
		s = &socks[cnt++];
		memset(s, 0, sizeof(*s));
		memcpy(&ms, rec.st.ms, sizeof(ms));
		s->family = (uint8_t)rec.family;
		s->tcp_state = rec.state;
		memcpy(s->saddr, rec.saddr, sizeof(s->saddr));
		memcpy(s->daddr, rec.daddr, sizeof(s->daddr));
		s->sport = rec.sport;
		s->dport = rec.dport;
		memcpy(s->algo, rec.algo, sizeof(s->algo));
		s->algo[sizeof(s->algo) - 1] = '\0';
		s->mode = (uint8_t)g.mode;
		s->iterations = ms.iters;
		s->bytes_this_iter = mltcp_bytes_done(rec.bytes_acked, ms.mark);
		s->bytes_per_iter = ms.bytes_per_iter;
		s->bytes_ratio = mltcp_ratio_q10(s->bytes_this_iter, ms.bytes_per_iter);
		s->flags = mltcp_bpf_info_flags(&ms, g.mode, g.overrun, s->bytes_this_iter);
		s->phase = mltcp_bpf_info_phase(&ms, g.mode, g.overrun, s->bytes_this_iter);
		s->has_phase = true;
		s->f = mltcp_sock_f_q10(&ms, g.mode, g.fparams, g.stagger, g.overrun,
					rec.bytes_acked);
		s->cwnd = rec.cwnd;
		s->tiebreak = ms.tiebreak;
	}
	if (r < 0 && !err)
		err = errno;
	close(it);
	if (err) {
		free(socks);
		errno = err;
		return -1;
	}
	*out = socks;
	*n = cnt;
	return 0;
}
