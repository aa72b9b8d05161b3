// SPDX-License-Identifier: GPL-2.0
/*
 * mltcpctl: show and tune MLTCP; see mltcpctl.8.
 *
 * Exit status: 0 success, 1 failure, 2 usage error.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bpf_ctl.h"
#include "compat.h"
#include "key.h"
#include "nl.h"
#include "output.h"
#include "parse.h"

/* The release, from the top-level VERSION file (the Makefile passes it). */
#ifndef MLTCP_VERSION
#error "MLTCP_VERSION is not defined: build mltcpctl with its Makefile"
#endif
#define MLTCPCTL_VERSION MLTCP_VERSION

static const char usage[] =
"Usage: mltcpctl [OPTIONS] [COMMAND] [OPTIONS]\n"
"\n"
"Show and tune MLTCP, the training-aware TCP congestion controls.\n"
"\n"
"Commands (may be abbreviated):\n"
"  show                      global parameters and per-algorithm counters\n"
"                            of this network namespace (the default)\n"
"  set PARAM VALUE ...       change global parameters (needs CAP_NET_ADMIN):\n"
"        slope N             slope of F = slope * bytes_ratio + intercept,\n"
"                            a decimal from 0 to 8\n"
"        intercept N         intercept of F, a decimal above 0, at most 8\n"
"        idle_ms N           idle gap that ends a learned iteration, 1-60000\n"
"        mode M              learned, given or off\n"
"        decrease on|off     F also divides the multiplicative decrease\n"
"        stagger N           largest head start (tie-break) of a\n"
"                            socket, a fraction of an iteration from 0 to 1\n"
"        overrun N           F applies to at most N times an iteration's\n"
"                            size, 1 to 8; 0: no bound (trusted hosts)\n"
"        tiebreak-key FILE   the key connections draw their tie-break under\n"
"                            (32 hex digits in a file only its owner may\n"
"                            read; - for stdin): hosts given the same key\n"
"                            draw the same tie-break at both ends of a\n"
"                            connection; for connections made afterwards;\n"
"                            show tells whether one is set, never the key\n"
"  sockets                   MLTCP sockets of this network namespace, with\n"
"                            each one's phase (base, unearned, overrun,\n"
"                            ramp, top, yield)\n"
"  metrics [FILE]            the counters (as show) and the sockets per\n"
"                            phase in the Prometheus text format; FILE is\n"
"                            replaced atomically (node_exporter's textfile\n"
"                            collector reads *.prom files)\n"
"  bpf load|unload|status    the BPF backend (kernels that cannot load the\n"
"                            modules): register the BPF mltcp_reno,\n"
"                            mltcp_cubic and mltcp_dctcp, pinned in\n"
"                            /sys/fs/bpf/mltcp; show and set then work on it\n"
"  bpf load --tiebreak-key FILE\n"
"                            the backend's tie-break key from FILE (as set\n"
"                            tiebreak-key) instead of a random one; fixed\n"
"                            until the backend is unloaded\n"
"  attach CGROUP ALGO        every TCP connection made or accepted by the\n"
"                            processes of a cgroup v2 uses ALGO (mltcp_*;\n"
"                            either backend), without changing the default;\n"
"                            mltcp_dctcp runs Reno where ECN is not\n"
"                            negotiated\n"
"  attach                    the attachments and their counters\n"
"  detach CGROUP             undo attach (existing connections keep ALGO)\n"
"  compat [-f FILE] [--rate RATE] [--threshold X]\n"
"  compat --trace FILE --rate RATE [--by dport|src|dst] [--threshold X]\n"
"                            can these training jobs share a link by taking\n"
"                            turns? Jobs from a profile file (lines NAME\n"
"                            COMPUTE_MS:BYTES[,...], optionally link NAME\n"
"                            RATE JOB...; stdin without -f) or estimated\n"
"                            from mltcp_iteration trace records; prints each\n"
"                            link's overlap score, verdict (compatible up to\n"
"                            --threshold, default 0.05), the jobs' ideal,\n"
"                            fair-sharing and interleaved iteration times\n"
"                            and the best shifts; no kernel needed\n"
"  help                      this text\n"
"\n"
"Options (before or after the command):\n"
"  -j, --json                JSON output\n"
"  -p, --pretty              indented JSON (with -j)\n"
"  -H, --host                show, metrics: host-wide counters, every network\n"
"                            namespace (CAP_NET_ADMIN in the initial one)\n"
"  -h, --help                this text\n"
"  -V, --version             program version\n"
"\n"
"Examples: mltcpctl set slope 1 intercept 1 idle_ms 10 mode learned\n"
"          mltcpctl compat -f jobs.txt --rate 10gbit\n"
"          mltcpctl metrics /var/lib/prometheus/node-exporter/mltcp.prom\n";

static void report(struct mltcpctl_nl *nl, const char *what)
{
	const char *msg = nl ? mltcpctl_nl_errmsg(nl) : "";
	int err = errno;

	if (err == EPERM && !strcmp(what, "set"))
		fprintf(stderr,
			"mltcpctl: set: permission denied: changing MLTCP parameters needs CAP_NET_ADMIN (run as root)\n");
	else if (err == EPERM && !strcmp(what, "show --host"))
		fprintf(stderr,
			"mltcpctl: show --host: permission denied: host-wide counters need CAP_NET_ADMIN in the initial network namespace (this namespace's: mltcpctl show)\n");
	else if (err == EPERM && !strcmp(what, "metrics --host"))
		fprintf(stderr,
			"mltcpctl: metrics --host: permission denied: host-wide counters need CAP_NET_ADMIN in the initial network namespace (this namespace's: mltcpctl metrics)\n");
	else if (err == EINVAL && !strcmp(what, "show --host"))
		fprintf(stderr,
			"mltcpctl: show --host: the loaded MLTCP module has no counter scopes (an older one, whose counters are all host-wide): run mltcpctl show\n");
	else if (*msg)
		fprintf(stderr, "mltcpctl: %s: %s (%s)\n", what, msg,
			strerror(err));
	else
		fprintf(stderr, "mltcpctl: %s: %s\n", what, strerror(err));
}

static int do_show(struct mltcpctl_nl *nl, const struct mltcpctl_args *args,
		   const struct mltcpctl_out *o)
{
	const char *what = args->host ? "show --host" : "show";
	struct mltcpctl_params p;
	struct mltcpctl_algo *algos = NULL;
	enum mltcpctl_scope scope;
	size_t n = 0;

	if (mltcpctl_nl_get_params(nl, &p) < 0) {
		report(nl, what);
		return 1;
	}
	if (mltcpctl_nl_get_counters(nl, args->host, &algos, &n, &scope) < 0) {
		report(nl, what);
		return 1;
	}
	mltcpctl_print_show(o, &p, algos, n, scope);
	free(algos);
	return 0;
}

static int do_sockets(struct mltcpctl_nl *nl, const struct mltcpctl_out *o)
{
	struct mltcpctl_sock *socks = NULL;
	size_t n = 0;

	if (mltcpctl_nl_get_sockets(nl, &socks, &n) < 0) {
		report(nl, "sockets");
		return 1;
	}
	mltcpctl_print_sockets(o, socks, n);
	free(socks);
	return 0;
}

/*
 * metrics: what show and sockets read, in the Prometheus text format, on
 * standard output or replacing args->metrics_file at once (for node_exporter's
 * textfile collector).  @nl NULL: the BPF backend.
 */
static int do_metrics(struct mltcpctl_nl *nl, const struct mltcpctl_args *args)
{
	const char *what = args->host ? "metrics --host" : "metrics";
	struct mltcpctl_sock *socks = NULL;
	struct mltcpctl_algo *algos = NULL;
	enum mltcpctl_scope scope = MLTCPCTL_SCOPE_HOST;
	size_t nalgos = 0, nsocks = 0, len = 0;
	struct mltcpctl_params p;
	char *buf = NULL, err[512];
	int ret = 1;
	FILE *f;

	if (nl ? mltcpctl_nl_get_params(nl, &p) < 0 ||
		 mltcpctl_nl_get_counters(nl, args->host, &algos, &nalgos, &scope) < 0 ||
		 mltcpctl_nl_get_sockets(nl, &socks, &nsocks) < 0 :
		 mltcpctl_bpf_get_params(&p) < 0 || mltcpctl_bpf_get_counters(&algos, &nalgos) < 0 ||
		 mltcpctl_bpf_get_sockets(&socks, &nsocks) < 0) {
		if (!nl && errno == EOPNOTSUPP)
			fprintf(stderr, "mltcpctl: metrics: the BPF backend was loaded without its socket iterator (kernel without iter/tcp)\n");
		else
			report(nl, what);
		goto out;
	}
	f = args->metrics_file ? open_memstream(&buf, &len) : stdout;
	if (!f) {
		fprintf(stderr, "mltcpctl: metrics: %s\n", strerror(errno));
		goto out;
	}
	mltcpctl_print_metrics(f, &p, algos, nalgos, scope, socks, nsocks);
	ret = 0;
	if (!args->metrics_file)
		goto out;
	if (fclose(f)) {
		fprintf(stderr, "mltcpctl: metrics: %s\n", strerror(errno));
		ret = 1;
	} else if (mltcpctl_replace_file(args->metrics_file, buf, len, err, sizeof(err))) {
		fprintf(stderr, "mltcpctl: metrics: %s\n", err);
		ret = 1;
	}
out:
	free(buf);
	free(socks);
	free(algos);
	return ret;
}

/* show and set on the BPF backend (no module; its maps are pinned) */
static int do_bpf(const struct mltcpctl_args *args, const struct mltcpctl_out *o)
{
	struct mltcpctl_params p;
	struct mltcpctl_algo *algos = NULL;
	size_t n = 0;

	switch (args->cmd) {
	case MLTCPCTL_CMD_METRICS:
		return do_metrics(NULL, args);
	case MLTCPCTL_CMD_SET:
		if (args->set_mask & MLTCPCTL_SET_TIEBREAK_KEY) {
			fprintf(stderr, "mltcpctl: set: the BPF backend's tie-break key is fixed when it loads; nothing changed (mltcpctl bpf unload, then mltcpctl bpf load --tiebreak-key FILE)\n");
			return 1;
		}
		if (mltcpctl_bpf_set_params(args) < 0) {
			report(NULL, "set");
			return 1;
		}
		return 0;
	case MLTCPCTL_CMD_SOCKETS: {
		struct mltcpctl_sock *socks = NULL;

		if (mltcpctl_bpf_get_sockets(&socks, &n) < 0) {
			if (errno == EOPNOTSUPP)
				fprintf(stderr, "mltcpctl: sockets: the BPF backend was loaded without its socket iterator (kernel without iter/tcp)\n");
			else
				report(NULL, "sockets");
			return 1;
		}
		mltcpctl_print_sockets(o, socks, n);
		free(socks);
		return 0;
	}
	default:
		if (mltcpctl_bpf_get_params(&p) < 0 ||
		    mltcpctl_bpf_get_counters(&algos, &n) < 0) {
			report(NULL, "show");
			return 1;
		}
		/* the BPF backend's counters are host-wide (bpf/mltcp_bpf.h) */
		mltcpctl_print_show(o, &p, algos, n, MLTCPCTL_SCOPE_HOST);
		free(algos);
		return 0;
	}
}

/*
 * compat: read the jobs (the profile file or the trace, stdin for "-" or
 * none), evaluate, then print: nothing is printed before everything is known.
 */
static int do_compat(const struct mltcpctl_args *args, const struct mltcpctl_out *o)
{
	const char *path = args->trace ? args->trace : args->file;
	const char *name = path && strcmp(path, "-") ? path : "stdin";
	struct mltcpctl_compat *c;
	char err[512];
	FILE *f = stdin;
	int ret;

	if (path && strcmp(path, "-")) {
		f = fopen(path, "r");
		if (!f) {
			fprintf(stderr, "mltcpctl: compat: %s: %s\n", path, strerror(errno));
			return 1;
		}
	}
	c = malloc(sizeof(*c));
	if (!c) {
		fprintf(stderr, "mltcpctl: compat: out of memory\n");
		ret = 1;
	} else if (args->trace) {
		ret = mltcpctl_compat_read_trace(f, name, args->by, args->rate_bps, c, err,
						 sizeof(err));
	} else {
		ret = mltcpctl_compat_read_profile(f, name, args->rate_bps, c, err, sizeof(err));
	}
	if (f != stdin)
		fclose(f);
	if (c && ret) {
		fprintf(stderr, "mltcpctl: %s\n", err);
		ret = ret == MLTCPCTL_COMPAT_EUSAGE ? 2 : 1;
	} else if (c) {
		ret = mltcpctl_compat_eval(c, args->threshold);
		if (ret) {
			fprintf(stderr, "mltcpctl: compat: %s\n", strerror(-ret));
			ret = 1;
		} else {
			mltcpctl_print_compat(o, c);
		}
	}
	free(c);
	return ret;
}

static int finish(int ret)
{
	if (fflush(stdout) == EOF) {
		fprintf(stderr, "mltcpctl: write error: %s\n", strerror(errno));
		ret = 1;
	}
	return ret;
}

int main(int argc, char *argv[])
{
	struct mltcpctl_args args;
	struct mltcpctl_out out;
	struct mltcpctl_nl *nl;
	char err[512];
	int ret;

	if (mltcpctl_parse(argc, argv, &args, err, sizeof(err)) < 0) {
		fprintf(stderr, "mltcpctl: %s\n", err);
		return 2;
	}
	switch (args.cmd) {
	case MLTCPCTL_CMD_HELP:
		fputs(usage, stdout);
		return 0;
	case MLTCPCTL_CMD_VERSION:
		printf("mltcpctl %s (MLTCP ABI %d)\n", MLTCPCTL_VERSION,
		       MLTCP_ABI_VERSION);
		return 0;
	default:
		break;
	}

	/* the key file, read and checked before anything changes */
	if (args.key_file &&
	    mltcpctl_read_tiebreak_key(args.key_file, args.tiebreak_key, err, sizeof(err))) {
		fprintf(stderr, "mltcpctl: %s: %s\n",
			args.cmd == MLTCPCTL_CMD_SET ? "set" : "bpf: load", err);
		return 1;
	}

	out.f = stdout;
	out.json = args.json;
	out.pretty = args.pretty;
	if (args.cmd == MLTCPCTL_CMD_COMPAT)
		return finish(do_compat(&args, &out));
	if (args.cmd == MLTCPCTL_CMD_BPF) {
		if (args.bpf_op == MLTCPCTL_BPF_LOAD)
			ret = mltcpctl_bpf_load(args.key_file ? args.tiebreak_key : NULL);
		else if (args.bpf_op == MLTCPCTL_BPF_UNLOAD)
			ret = mltcpctl_bpf_unload();
		else
			ret = mltcpctl_bpf_status(&out);
		return finish(ret);
	}
	if (args.cmd == MLTCPCTL_CMD_ATTACH && !args.cgroup)
		return finish(mltcpctl_attach_list(&out));
	if (args.cmd == MLTCPCTL_CMD_ATTACH)
		return finish(mltcpctl_attach(args.cgroup, args.algo));
	if (args.cmd == MLTCPCTL_CMD_DETACH)
		return finish(mltcpctl_detach(args.cgroup));

	/*
	 * The BPF backend, when loaded, is the one whose algorithms run (it
	 * cannot be loaded next to the algorithm modules; a core module left
	 * loaded without them has nothing to tune).
	 */
	if (mltcpctl_bpf_loaded())
		return finish(do_bpf(&args, &out));
	nl = mltcpctl_nl_open();
	if (!nl) {
		if (errno == ENOENT)
			fprintf(stderr,
				"mltcpctl: the MLTCP module is not loaded (no generic netlink family \"%s\"); load it with: modprobe mltcp\n",
				MLTCP_GENL_NAME);
		else
			fprintf(stderr, "mltcpctl: cannot talk to the kernel: %s\n",
				strerror(errno));
		return 1;
	}

	switch (args.cmd) {
	case MLTCPCTL_CMD_SET:
		ret = 0;
		if (mltcpctl_nl_set_params(nl, &args) < 0) {
			report(nl, "set");
			ret = 1;
		}
		break;
	case MLTCPCTL_CMD_SOCKETS:
		ret = do_sockets(nl, &out);
		break;
	case MLTCPCTL_CMD_METRICS:
		ret = do_metrics(nl, &args);
		break;
	default:
		ret = do_show(nl, &args, &out);
		break;
	}
	mltcpctl_nl_close(nl);
	return finish(ret);
}
