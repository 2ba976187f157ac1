/*
 * sysmem.c -- how much memory this process may still take (sysmem.h).
 * The one place below the command line that reads the system: not
 * configuration, which enters at the edges, but the machine the drive
 * is about to be built on.
 */
#include "base/sysmem.h"
#include "base/util.h"

#include <stdio.h>
#include <string.h>
#include <sys/resource.h>

void ssd_mem_sum(struct ssd_mem *m)
{
	m->total = m->program + m->ftl + m->verify + m->power + m->dram +
		   m->host + m->run;
}

/* The value of "NAME: N kB" in /proc/meminfo, bytes; 0 if absent. */
static int meminfo(const char *name, uint64_t *out)
{
	FILE *f = fopen("/proc/meminfo", "r");
	if (!f)
		return 0;
	char line[256];
	size_t n = strlen(name);
	int found = 0;
	while (fgets(line, sizeof line, f)) {
		unsigned long long kb;
		if (!strncmp(line, name, n) && line[n] == ':' &&
		    sscanf(line + n + 1, "%llu", &kb) == 1) {
			*out = (uint64_t)kb * 1024;
			found = 1;
			break;
		}
	}
	fclose(f);
	return found;
}

/* A number alone in a file (cgroup's limits; "max" is none). */
static int read_u64(const char *path, uint64_t *out)
{
	FILE *f = fopen(path, "r");
	if (!f)
		return 0;
	unsigned long long v;
	int ok = fscanf(f, "%llu", &v) == 1;
	fclose(f);
	if (ok)
		*out = (uint64_t)v;
	return ok;
}

/* What the cgroup this process is in still lets it take: the least of
 * limit - usage over it and its ancestors (a limit above the machine's
 * memory, as v1 writes "none", is no limit).  0 if there is none. */
static int cgroup_left(uint64_t *out)
{
	FILE *f = fopen("/proc/self/cgroup", "r");
	if (!f)
		return 0;
	char line[1024], path[1024] = "", v1[1024] = "";
	int have2 = 0, have1 = 0;
	while (fgets(line, sizeof line, f)) {
		line[strcspn(line, "\n")] = 0;
		if (!strncmp(line, "0::", 3)) {
			snprintf(path, sizeof path, "%s", line + 3);
			have2 = 1;
		} else {
			char *c = strchr(line, ':');
			char *c2 = c ? strchr(c + 1, ':') : NULL;
			if (c && c2 && c2 - c - 1 == 6 && !strncmp(c + 1, "memory", 6)) {
				snprintf(v1, sizeof v1, "%s", c2 + 1);
				have1 = 1;
			}
		}
	}
	fclose(f);
	const char *dir = have1 ? "/sys/fs/cgroup/memory" : "/sys/fs/cgroup";
	const char *lim = have1 ? "memory.limit_in_bytes" : "memory.max";
	const char *use = have1 ? "memory.usage_in_bytes" : "memory.current";
	if (!have1 && !have2)
		return 0;
	char rel[1024];
	snprintf(rel, sizeof rel, "%s", have1 ? v1 : path);
	int found = 0;
	uint64_t best = UINT64_MAX;
	for (;;) {
		char p[2200];
		uint64_t l, u = 0;
		snprintf(p, sizeof p, "%s%s/%s", dir, rel, lim);
		if (read_u64(p, &l) && l < (1ull << 60)) {
			snprintf(p, sizeof p, "%s%s/%s", dir, rel, use);
			read_u64(p, &u);
			uint64_t left = l > u ? l - u : 0;
			if (left < best)
				best = left;
			found = 1;
		}
		char *slash = strrchr(rel, '/');
		if (!slash || !rel[0])
			break;
		*slash = 0; /* the parent; "" is the root */
	}
	if (found)
		*out = best;
	return found;
}

/* The address space this process has mapped, bytes (VmSize). */
static uint64_t mapped_now(void)
{
	FILE *f = fopen("/proc/self/statm", "r");
	if (!f)
		return 0;
	unsigned long long pages = 0;
	if (fscanf(f, "%llu", &pages) != 1)
		pages = 0;
	fclose(f);
	return (uint64_t)pages * 4096;
}

int ssd_mem_available(uint64_t *bytes, const char **what)
{
	uint64_t best = UINT64_MAX, v;
	const char *w = NULL;
	if (meminfo("MemAvailable", &v)) {
		best = v;
		w = "available";
	}
	if (cgroup_left(&v) && v < best) {
		best = v;
		w = "left under the cgroup's memory limit";
	}
	struct rlimit rl;
	if (!getrlimit(RLIMIT_AS, &rl) && rl.rlim_cur != RLIM_INFINITY) {
		uint64_t used = mapped_now();
		v = (uint64_t)rl.rlim_cur > used ? (uint64_t)rl.rlim_cur - used : 0;
		if (v < best) {
			best = v;
			w = "left under the address-space limit (ulimit -v)";
		}
	}
	if (!w)
		return SSD_ENOENT;
	*bytes = best;
	*what = w;
	return 0;
}
