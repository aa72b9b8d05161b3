// SPDX-License-Identifier: GPL-2.0
/*
 * spank_mltcp: a Slurm SPANK plugin that runs a job's TCP connections on an
 * MLTCP congestion control when the job asks for one:
 *
 *	sbatch --mltcp=mltcp_cubic train.sh	(also srun and salloc)
 *
 * The option is registered in every context (sbatch, salloc and srun, which
 * also take it from the environment a batch job inherits, so that the steps
 * srun starts inside the job ask too; and slurmstepd).  In slurmstepd,
 * which runs as root, init_post_opt attaches the step's cgroup v2 directory
 * (.../job_J/step_S, made by Slurm's cgroup/v2 plugin before SPANK starts)
 * with `mltcpctl attach`, before any task is forked; exit detaches it, after
 * the tasks are gone and before proctrack/cgroup removes the directory.
 * The attachment is inherited by the step's task cgroups (user/task_N).
 *
 * Each step's slurmstepd attaches the cgroup it made itself: the job's cgroup
 * is shared by every step of the job and outlives any one slurmstepd, so a
 * step that attached it could not tell when to detach.
 *
 * A job that does not ask is untouched.  A failure never fails the job: it
 * is logged in slurmd's log and printed on the job's standard error by its
 * first task, and the job runs on the node's default congestion control.
 *
 * plugstack.conf arguments: mltcpctl=PATH (default MLTCPCTL_PATH).
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include <slurm/spank.h>

SPANK_PLUGIN(mltcp, 1);

#ifndef MLTCPCTL_PATH
#define MLTCPCTL_PATH	"/usr/sbin/mltcpctl"
#endif

/* the algorithms mltcpctl attach takes; others are reported, never fatal */
static const char *const known_algos[] = { "mltcp_reno", "mltcp_cubic", "mltcp_dctcp" };
#define KNOWN_ALGOS	"mltcp_reno, mltcp_cubic, mltcp_dctcp"

static char mltcpctl[1024] = MLTCPCTL_PATH;
/* what the job asked for; "" when it did not */
static char algo[64];
static int algo_too_long;
/* the step's cgroup, once attached */
static char attached_cg[4096];
/* why the attach failed, for the job's standard error; "" when it did not */
static char failure[8192];

static int known(const char *name)
{
	size_t i;

	for (i = 0; i < sizeof(known_algos) / sizeof(known_algos[0]); i++)
		if (!strcmp(name, known_algos[i]))
			return 1;
	return 0;
}

/*
 * --mltcp=ALGO.  In sbatch, salloc and srun (remote == 0) an unknown name is
 * only warned about: the job still runs, on the node's default.
 */
static int opt_mltcp(int val, const char *optarg, int remote)
{
	(void)val;
	if (!optarg)
		optarg = "";
	algo_too_long = strlen(optarg) >= sizeof(algo);
	snprintf(algo, sizeof(algo), "%s", optarg);
	if (!remote && !known(optarg))
		fprintf(stderr, "mltcp: --mltcp=%s: not an MLTCP congestion control (%s); the job runs on the node's default\n",
			optarg, KNOWN_ALGOS);
	return ESPANK_SUCCESS;
}

static struct spank_option mltcp_option = {
	"mltcp", "ALGO",
	"run the job's TCP connections on the MLTCP congestion control ALGO ("
	KNOWN_ALGOS ")",
	1, 0, opt_mltcp
};

int slurm_spank_init(spank_t sp, int ac, char **av)
{
	int i;

	for (i = 0; i < ac; i++) {
		if (!strncmp(av[i], "mltcpctl=", 9) && strlen(av[i] + 9) < sizeof(mltcpctl))
			snprintf(mltcpctl, sizeof(mltcpctl), "%s", av[i] + 9);
		else if (!strncmp(av[i], "mltcpctl=", 9))
			slurm_error("mltcp: plugstack.conf: mltcpctl= path too long; using %s", mltcpctl);
		else
			slurm_error("mltcp: unknown plugstack.conf argument '%s' ignored", av[i]);
	}
	if (spank_option_register(sp, &mltcp_option) != ESPANK_SUCCESS)
		slurm_error("mltcp: cannot register --mltcp");
	return ESPANK_SUCCESS;
}

/*
 * The cgroup v2 directory of the step this slurmstepd runs, from its own
 * cgroup (".../job_J/step_S/slurm") and the cgroup2 mount that holds it.
 * 0, or -1 with the reason in @why.
 */
static int step_cgroup(char *out, size_t len, char *why, size_t wlen)
{
	char line[4096], path[4096] = "", *p, *step = NULL;
	FILE *f;

	f = fopen("/proc/self/cgroup", "r");
	if (!f) {
		snprintf(why, wlen, "/proc/self/cgroup: %s", strerror(errno));
		return -1;
	}
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, "0::", 3)) {
			line[strcspn(line, "\n")] = '\0';
			snprintf(path, sizeof(path), "%s", line + 3);
		}
	fclose(f);
	/* a "step_S" component right below a "job_J" one */
	for (p = strstr(path, "/step_"); p && !step; p = strstr(p + 1, "/step_")) {
		char *parent = p;

		while (parent > path && parent[-1] != '/')
			parent--;
		if (parent > path && !strncmp(parent, "job_", 4))
			step = p;
	}
	if (!path[0] || !step) {
		snprintf(why, wlen,
			 "slurmstepd is in no step cgroup of the cgroup v2 hierarchy (it is in '%s'): the node needs Slurm's cgroup/v2 plugin (cgroup.conf CgroupPlugin=cgroup/v2, slurm.conf ProctrackType=proctrack/cgroup)",
			 path[0] ? path : "none");
		return -1;
	}
	p = strchr(step + 1, '/');
	if (p)
		*p = '\0';

	/* mountinfo: ID PARENT MAJ:MIN ROOT MOUNTPOINT OPTS ... - FSTYPE SOURCE OPTS */
	f = fopen("/proc/self/mountinfo", "r");
	if (!f) {
		snprintf(why, wlen, "/proc/self/mountinfo: %s", strerror(errno));
		return -1;
	}
	out[0] = '\0';
	while (!out[0] && fgets(line, sizeof(line), f)) {
		char root[2048], mnt[2048], *dash = strstr(line, " - ");
		size_t rl;

		if (!dash || strncmp(dash + 3, "cgroup2 ", 8) ||
		    sscanf(line, "%*s %*s %*s %2047s %2047s", root, mnt) != 2)
			continue;
		rl = strcmp(root, "/") ? strlen(root) : 0;
		if (strncmp(path, root, rl) || (path[rl] && path[rl] != '/'))
			continue;
		snprintf(out, len, "%s%s", mnt, path + rl);
	}
	fclose(f);
	if (!out[0]) {
		snprintf(why, wlen, "no cgroup2 mount holds %s", path);
		return -1;
	}
	return 0;
}

/*
 * Runs mltcpctl with @a1 @a2 [@a3]; its output (both streams, at most @len
 * bytes, without the trailing newline) in @msg.  Returns its exit status, or
 * -1 when it could not be run (the reason in @msg).
 */
static int run_mltcpctl(const char *a1, const char *a2, const char *a3, char *msg, size_t len)
{
	int fds[2], status;
	size_t n = 0;
	ssize_t r;
	char sink[256];
	pid_t pid;

	msg[0] = '\0';
	if (access(mltcpctl, X_OK)) {
		snprintf(msg, len, "cannot run %s: %s", mltcpctl, strerror(errno));
		return -1;
	}
	if (pipe(fds)) {
		snprintf(msg, len, "pipe: %s", strerror(errno));
		return -1;
	}
	pid = fork();
	if (pid < 0) {
		snprintf(msg, len, "fork: %s", strerror(errno));
		close(fds[0]);
		close(fds[1]);
		return -1;
	}
	if (!pid) {
		/* slurmstepd has threads: only async-signal-safe calls until exec */
		static const char failed[] = "exec of mltcpctl failed";

		dup2(fds[1], STDOUT_FILENO);
		dup2(fds[1], STDERR_FILENO);
		close(fds[0]);
		close(fds[1]);
		execl(mltcpctl, "mltcpctl", a1, a2, a3, (char *)NULL);
		if (write(STDERR_FILENO, failed, sizeof(failed) - 1) < 0)
			_exit(126);
		_exit(127);
	}
	close(fds[1]);
	/* keep the first @len bytes, drain the rest so that mltcpctl never blocks */
	for (;;) {
		if (n + 1 < len)
			r = read(fds[0], msg + n, len - 1 - n);
		else
			r = read(fds[0], sink, sizeof(sink));
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			break;
		if (n + 1 < len)
			n += r;
	}
	close(fds[0]);
	msg[n] = '\0';
	while (n && msg[n - 1] == '\n')
		msg[--n] = '\0';
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR) {
			snprintf(msg, len, "waitpid: %s", strerror(errno));
			return -1;
		}
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

/* slurmstepd, as root, after the step's cgroup exists and before any task is forked */
int slurm_spank_init_post_opt(spank_t sp, int ac, char **av)
{
	char cg[4096], why[768], out[2048];
	uint32_t job = 0;
	int rc;

	(void)ac;
	(void)av;
	if (spank_remote(sp) != 1 || !algo[0])
		return ESPANK_SUCCESS;
	spank_get_item(sp, S_JOB_ID, &job);
	if (algo_too_long || !known(algo)) {
		snprintf(failure, sizeof(failure),
			 "--mltcp=%s%s: not an MLTCP congestion control (%s); the job runs on the node's default",
			 algo, algo_too_long ? "..." : "", KNOWN_ALGOS);
		slurm_error("mltcp: job %u: %s", job, failure);
		return ESPANK_SUCCESS;
	}
	if (step_cgroup(cg, sizeof(cg), why, sizeof(why))) {
		snprintf(failure, sizeof(failure),
			 "--mltcp=%s not applied: %s; the job runs on the node's default", algo, why);
		slurm_error("mltcp: job %u: %s", job, failure);
		return ESPANK_SUCCESS;
	}
	rc = run_mltcpctl("attach", cg, algo, out, sizeof(out));
	if (rc) {
		snprintf(failure, sizeof(failure),
			 "--mltcp=%s not applied: %s attach %s %s failed (%s); the job runs on the node's default",
			 algo, mltcpctl, cg, algo, out[0] ? out : "no message");
		slurm_error("mltcp: job %u: %s", job, failure);
		return ESPANK_SUCCESS;
	}
	snprintf(attached_cg, sizeof(attached_cg), "%s", cg);
	slurm_info("mltcp: job %u: %s attached to %s", job, cg, algo);
	return ESPANK_SUCCESS;
}

/*
 * In each task, as the user, with its standard streams those of the job and
 * before exec: the first task of the node tells the job why it did not get
 * what it asked for.
 */
int slurm_spank_task_init(spank_t sp, int ac, char **av)
{
	int task = -1;

	(void)ac;
	(void)av;
	if (spank_remote(sp) != 1 || !failure[0])
		return ESPANK_SUCCESS;
	if (spank_get_item(sp, S_TASK_ID, &task) == ESPANK_SUCCESS && task == 0)
		fprintf(stderr, "mltcp: %s\n", failure);
	return ESPANK_SUCCESS;
}

/* slurmstepd, as root, once the step's tasks are gone */
int slurm_spank_exit(spank_t sp, int ac, char **av)
{
	char out[2048];
	uint32_t job = 0;
	struct stat st;

	(void)ac;
	(void)av;
	if (spank_remote(sp) != 1 || !attached_cg[0])
		return ESPANK_SUCCESS;
	spank_get_item(sp, S_JOB_ID, &job);
	if (stat(attached_cg, &st)) {
		/* the kernel ended the links with the cgroup; only the pins remain */
		slurm_error("mltcp: job %u: %s is gone before the detach: 'mltcpctl attach' lists it as '(cgroup gone)' until the pins in /sys/fs/bpf/mltcp-attach are removed",
			    job, attached_cg);
		return ESPANK_SUCCESS;
	}
	if (run_mltcpctl("detach", attached_cg, NULL, out, sizeof(out)))
		slurm_error("mltcp: job %u: %s detach %s failed: %s", job, mltcpctl, attached_cg,
			    out[0] ? out : "no message");
	else
		slurm_info("mltcp: job %u: %s detached", job, attached_cg);
	attached_cg[0] = '\0';
	return ESPANK_SUCCESS;
}
