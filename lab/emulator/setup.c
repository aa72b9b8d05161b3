// SPDX-License-Identifier: GPL-2.0
/*
 * mltcp-bench: what the options mean together. The jobs get --iterations and --cc, the
 * FIFO its size, the topology its addresses and namespaces (given with --no-topology) or
 * its bottleneck placement; the run gets its label and result directory. Then the
 * network: the topology is built and the --sysctl values set.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "output.h"
#include "setup.h"
#include "supervise.h"
#include "util.h"

struct topology topo;

/* i-th entry of a comma list, or the only entry; -1 when the list is too short. */
static int list_item(const char *list, unsigned i, char *out, size_t len)
{
	unsigned n = 1;
	const char *p = list, *e;

	for (const char *c = list; *c; c++)
		n += *c == ',';
	if (n == 1)
		i = 0;
	else if (i >= n)
		return -1;
	for (unsigned k = 0; k < i; k++)
		p = strchr(p, ',') + 1;
	e = strchr(p, ',');
	if (!e)
		e = p + strlen(p);
	if ((size_t)(e - p) >= len)
		return -1;
	memcpy(out, p, (size_t)(e - p));
	out[e - p] = '\0';
	return 0;
}

static unsigned list_len(const char *list)
{
	unsigned n = 1;

	for (const char *c = list; *c; c++)
		n += *c == ',';
	return n;
}

/*
 * The bandwidth-delay product used by --queue-bdp: rate x reference RTT, where the
 * reference RTT is max(--delay-ms, 10 ms). The emulated links add no delay of their own
 * (tens of microseconds); 10 ms stands for the RTT the jobs effectively see under the
 * bench guest's scheduling, and makes 1 BDP = the default FIFO (125 kB at 100 Mbit/s).
 */
double bdp_bytes(void)
{
	double rtt_ms = opt.delay_ms > 10 ? opt.delay_ms : 10;

	return opt.rate_mbit * 1e6 / 8 * rtt_ms / 1e3;
}

/* --iterations and --cc on every job, and what the runs need to know of the jobs. */
static int apply_job_options(struct bench *b)
{
	char err[512] = "";

	if (opt.cc && list_len(opt.cc) != 1 && list_len(opt.cc) != jobs.n) {
		warnx_("--cc: %u names for %zu jobs (give one, or one per job)", list_len(opt.cc),
		       jobs.n);
		return 2;
	}
	b->nbulk = 0;
	for (size_t j = 0; j < jobs.n; j++) {
		struct job_profile *p = &jobs.jobs[j];

		if (opt.iterations > 0 && !p->bulk)
			p->iterations = (unsigned)opt.iterations;
		b->nbulk += p->bulk;
		if (opt.cc) {
			char name[64];

			if (list_item(opt.cc, (unsigned)j, name, sizeof(name)) ||
			    profile_set_key(p, "cc", name, err, sizeof(err))) {
				warnx_("--cc: %s", err);
				return 2;
			}
		}
		b->base_offset[j] = p->offset_ms; /* + a random offset drawn for every run */
		b->theory[j] = profile_theory_ms(p, opt.rate_mbit);
	}
	return -1;
}

/* The FIFO limit: --queue-kb, --queue-bdp or 10 ms at the rate, at least two packets. */
static int size_queue(void)
{
	if (opt.queue_bdp > 0 && opt.queue_kb > 0) {
		warnx_("give --queue-kb or --queue-bdp, not both");
		return 2;
	}
	if (opt.queue_bdp > 0)
		opt.queue_kb = opt.queue_bdp * bdp_bytes() / 1000;
	if (!opt.queue_kb)
		opt.queue_kb = opt.rate_mbit * 1e6 / 8 * 0.010 / 1000;
	if (opt.queue_kb * 1000 < 2.0 * opt.mtu + 100)
		opt.queue_kb = (2.0 * opt.mtu + 100) / 1000;
	return -1;
}

/* --no-topology: the jobs' addresses and namespaces, and the qdisc to sample, into topo. */
static int use_existing_topology(void)
{
	if (!opt.rcv_addr) {
		warnx_("--no-topology needs --rcv-addr");
		return 2;
	}
	if (list_len(opt.rcv_addr) != 1 && list_len(opt.rcv_addr) != jobs.n) {
		warnx_("--rcv-addr: %u addresses for %zu jobs", list_len(opt.rcv_addr), jobs.n);
		return 2;
	}
	if ((opt.snd_ns && list_len(opt.snd_ns) != 1 && list_len(opt.snd_ns) != jobs.n) ||
	    (opt.rcv_ns && list_len(opt.rcv_ns) != 1 && list_len(opt.rcv_ns) != jobs.n)) {
		warnx_("--snd-ns/--rcv-ns: give one namespace or one per job");
		return 2;
	}
	topo.njobs = (unsigned)jobs.n;
	for (unsigned j = 0; j < jobs.n; j++) {
		if (list_item(opt.rcv_addr, j, topo.rcv_addr[j], sizeof(topo.rcv_addr[j])) ||
		    (opt.snd_ns &&
		     list_item(opt.snd_ns, j, topo.snd_ns[j], sizeof(topo.snd_ns[j]))) ||
		    (opt.rcv_ns &&
		     list_item(opt.rcv_ns, j, topo.rcv_ns[j], sizeof(topo.rcv_ns[j])))) {
			warnx_("address or namespace name too long");
			return 2;
		}
	}
	if (opt.bottleneck && (!strcmp(opt.bottleneck, "router") ||
				!strcmp(opt.bottleneck, "egress"))) {
		warnx_("--bottleneck %s builds a topology: not with --no-topology (there, "
		       "--bottleneck [NS:]DEV names the qdisc to sample)", opt.bottleneck);
		return 2;
	}
	if (opt.bottleneck) {
		const char *colon = strrchr(opt.bottleneck, ':');
		const char *dev = colon ? colon + 1 : opt.bottleneck;
		size_t nl = colon ? (size_t)(colon - opt.bottleneck) : 0;

		if (!*dev || strlen(dev) >= sizeof(topo.bott_dev) || nl >= sizeof(topo.bott_ns)) {
			warnx_("--bottleneck: '%s' is not [NS:]DEV", opt.bottleneck);
			return 2;
		}
		memcpy(topo.bott_ns, opt.bottleneck, nl);
		topo.bott_ns[nl] = '\0';
		strcpy(topo.bott_dev, dev);
	}
	if (opt.queue_bdp > 0 || opt.delay_ms > 0) {
		warnx_("--queue-bdp/--delay-ms shape the built topology: not with --no-topology");
		return 2;
	}
	return -1;
}

/* A topology the tool builds: no addresses or namespaces given, the FIFO's placement. */
static int check_built_topology(void)
{
	if (opt.rcv_addr || opt.snd_ns || opt.rcv_ns) {
		warnx_("--rcv-addr/--snd-ns/--rcv-ns need --no-topology");
		return 2;
	}
	if (opt.bottleneck) {
		if (!strcmp(opt.bottleneck, "egress")) {
			opt.egress = 1;
		} else if (strcmp(opt.bottleneck, "router")) {
			warnx_("--bottleneck: '%s' is not router or egress ([NS:]DEV needs "
			       "--no-topology)", opt.bottleneck);
			return 2;
		}
	}
	return -1;
}

/* --label, or the jobs' congestion controls joined by '+', each once. */
static void make_label(struct bench *b)
{
	size_t off = 0;

	if (opt.label) {
		snprintf(b->label, sizeof(b->label), "%s", opt.label);
		return;
	}
	b->label[0] = '\0';
	for (size_t j = 0; j < jobs.n && off < sizeof(b->label) - 20; j++) {
		const char *cc = jobs.jobs[j].cc[0] ? jobs.jobs[j].cc : "default";

		if (j && strstr(b->label, cc))
			continue;
		off += (size_t)snprintf(b->label + off, sizeof(b->label) - off, "%s%s",
					off ? "+" : "", cc);
	}
}

/* --out, or results/bench-DATE-TIME; created with its parents. */
static int make_out_dir(void)
{
	static char outbuf[256];

	if (!opt.out) {
		char date[64];
		time_t now = time(NULL);

		strftime(date, sizeof(date), "%Y%m%d-%H%M%S", localtime(&now));
		snprintf(outbuf, sizeof(outbuf), "results/bench-%s", date);
		opt.out = outbuf;
	}
	if (mkdir_p(opt.out)) {
		warnx_("cannot create %s: %s", opt.out, strerror(errno));
		return 1;
	}
	return -1;
}

int setup_bench(struct bench *b)
{
	int ret;

	if (!opt.have_seed)
		opt.seed = (unsigned long)time(NULL) ^ ((unsigned long)getpid() << 16);
	srandom((unsigned)opt.seed);
	ret = apply_job_options(b);
	if (ret < 0)
		ret = size_queue();
	if (ret < 0)
		ret = opt.no_topology ? use_existing_topology() : check_built_topology();
	if (ret >= 0)
		return ret;
	if (geteuid() != 0)
		warnx_("not root: creating or entering network namespaces will likely fail");
	make_label(b);
	return make_out_dir();
}

int setup_network(void)
{
	if (!opt.no_topology) {
		struct topo_opts to = {
			.rate_mbit = opt.rate_mbit,
			.queue_bytes = (uint64_t)(opt.queue_kb * 1000),
			.burst_bytes = opt.burst_bytes,
			.ecn_bytes = (uint64_t)(opt.ecn_kb * 1000),
			.mtu = opt.mtu,
			.egress = opt.egress,
			.delay_ms = opt.delay_ms,
		};

		if (topology_create(&topo, (unsigned)jobs.n, &to))
			return -1;
		if (!opt.quiet)
			fprintf(stderr,
				"mltcp-bench: topology %s-*: %zu jobs, bottleneck %s, "
				"tbf %g Mbit/s, FIFO %.0f B (%.2f BDP), burst %" PRIu64 " B%s, "
				"added RTT %g ms\n",
				topo.prefix, jobs.n, opt.egress ? "egress" : "router",
				opt.rate_mbit, opt.queue_kb * 1000,
				opt.queue_kb * 1000 / bdp_bytes(), opt.burst_bytes,
				opt.ecn_kb > 0 ? ", RED ECN marking" : "", opt.delay_ms);
	}
	for (unsigned i = 0; i < opt.nsysctl; i++) {
		char key[256];
		const char *eq = strchr(opt.sysctls[i], '=');

		snprintf(key, sizeof(key), "%.*s", (int)(eq - opt.sysctls[i]), opt.sysctls[i]);
		for (unsigned j = 0; j < jobs.n; j++)
			if (netns_sysctl(topo.snd_ns[j], key, eq + 1) ||
			    netns_sysctl(topo.rcv_ns[j], key, eq + 1))
				fatal_exit(1);
	}
	return 0;
}
