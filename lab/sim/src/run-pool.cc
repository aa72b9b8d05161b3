/* SPDX-License-Identifier: GPL-2.0 */
/* The simulations as processes of their own, run a few at a time (run-pool.h). */

#include "run-pool.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <map>
#include <sys/wait.h>
#include <unistd.h>

namespace ns3
{

/** @return the bytes a run moves, for ordering the runs longest first. */
static double
Cost(const Scenario& sc, const RunSpec& spec)
{
    double cost = 0;
    for (uint32_t j : spec.jobs)
    {
        const JobInstance& job = sc.JobsOf(spec.caseIndex)[j];
        cost += job.hosts * job.profile.CommShare();
    }
    return cost * spec.durationS;
}

int
AddTask(std::vector<Task>& tasks,
        const Scenario& sc,
        const std::string& outDir,
        const RunSpec& spec)
{
    tasks.push_back({spec, outDir + "/runs/" + spec.label + ".txt", Cost(sc, spec)});
    return int(tasks.size() - 1);
}

bool
RunAll(std::vector<Task>& tasks,
       uint32_t parallel,
       const std::string& conf,
       const std::vector<std::string>& sets)
{
    char self[4096];
    ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
    if (n <= 0)
    {
        std::perror("readlink /proc/self/exe");
        return false;
    }
    self[n] = '\0';
    std::vector<size_t> order(tasks.size());
    for (size_t i = 0; i < order.size(); i++)
    {
        order[i] = i;
    }
    std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
        return tasks[a].cost > tasks[b].cost;
    });
    std::map<pid_t, size_t> running;
    std::map<pid_t, std::chrono::steady_clock::time_point> started;
    size_t next = 0;
    size_t done = 0;
    bool ok = true;
    while (done < tasks.size())
    {
        while (ok && running.size() < parallel && next < order.size())
        {
            const Task& t = tasks[order[next]];
            std::vector<std::string> args = {self, "--run-one", conf, "--out", t.out};
            for (const std::string& s : sets)
            {
                args.push_back("--set");
                args.push_back(s);
            }
            for (const std::string& a : RunSpecArgs(t.spec))
            {
                args.push_back(a);
            }
            std::fflush(nullptr);
            pid_t pid = fork();
            if (pid == 0)
            {
                std::vector<char*> argv;
                for (std::string& a : args)
                {
                    argv.push_back(a.data());
                }
                argv.push_back(nullptr);
                execv(self, argv.data());
                std::perror("execv");
                _exit(127);
            }
            if (pid < 0)
            {
                std::perror("fork");
                return false;
            }
            running[pid] = order[next];
            started[pid] = std::chrono::steady_clock::now();
            next++;
        }
        if (running.empty())
        {
            break;
        }
        int status;
        pid_t pid = wait(&status);
        if (pid < 0)
        {
            std::perror("wait");
            return false;
        }
        auto it = running.find(pid);
        if (it == running.end())
        {
            continue;
        }
        const Task& t = tasks[it->second];
        double s =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - started[pid]).count();
        done++;
        bool good = WIFEXITED(status) && WEXITSTATUS(status) == 0;
        std::printf("[%zu/%zu] %-24s %6.1f s%s\n",
                    done,
                    tasks.size(),
                    t.spec.label.c_str(),
                    s,
                    good ? "" : "  FAILED");
        std::fflush(stdout);
        ok = ok && good;
        running.erase(it);
    }
    return ok;
}

} // namespace ns3
