/* test_duet.c: gates/sample/duet.c and its OS part (duet.h): the order of
 * the CPUs, the split between the sides, when duet cannot run, the pair of
 * threads released together, and a child pinned by its thread
 * (spawn_pin_thread). */
#include <criterion/criterion.h>
#include <errno.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "sample/duet.h"
#include "sample/spawn.h"

TestSuite(duet);

Test(duet, one_cpu_per_core_first)
{
	/* CPUs 0 and 1 share a core, as do 2 and 3 (SMT siblings numbered
	 * side by side) */
	int cpus[4] = { 0, 1, 2, 3 }, out[4];
	long core[4] = { 7, 7, 9, 9 };
	duet_cpus_order(cpus, core, 4, out);
	cr_expect(out[0] == 0 && out[1] == 2 && out[2] == 1 && out[3] == 3,
		  "%d %d %d %d", out[0], out[1], out[2], out[3]);
	/* siblings numbered half the CPUs apart (0 and 2 share a core) */
	long halves[4] = { 5, 6, 5, 6 };
	duet_cpus_order(cpus, halves, 4, out);
	cr_expect(out[0] == 0 && out[1] == 1 && out[2] == 2 && out[3] == 3);
	/* unknown cores: each its own, order kept */
	long unknown[3] = { -1, -1, -1 };
	int three[3] = { 4, 2, 9 };
	duet_cpus_order(three, unknown, 3, out);
	cr_expect(out[0] == 4 && out[1] == 2 && out[2] == 9);
}

Test(duet, sides_take_alternate_positions_and_swap)
{
	struct duet_cpus c = { { 0, 2, 1, 3 }, 4 };
	int x[2], y[2];
	duet_split(&c, 1, 0, x, y);
	cr_expect(x[0] == 0 && y[0] == 2);
	duet_split(&c, 1, 1, x, y);
	cr_expect(x[0] == 2 && y[0] == 0, "swapped");
	duet_split(&c, 2, 0, x, y);
	cr_expect(x[0] == 0 && x[1] == 1 && y[0] == 2 && y[1] == 3);
	cr_expect(duet_fits(&c, 1) && duet_fits(&c, 2));
	cr_expect(!duet_fits(&c, 3), "three threads a side need six CPUs");
	cr_expect(!duet_fits(&c, 0), "threads=0 means every CPU");
}

Test(duet, why_it_cannot_run)
{
	struct duet_cpus two = { { 0, 1 }, 2 }, one = { { 3 }, 1 };
	char why[200];
	cr_expect_eq(duet_unavailable(&two, 0, -1, NULL, why, sizeof why), 0);
	cr_expect_eq(duet_unavailable(&one, 0, -1, NULL, why, sizeof why), -1);
	cr_expect_str_eq(why, "duet needs two CPUs: this process may run on 1");
	cr_expect_eq(duet_unavailable(&two, 0, 1, NULL, why, sizeof why), -1);
	cr_expect(strstr(why, "--pin-cpu 1"), "%s", why);
	cr_expect_eq(duet_unavailable(&two, 0, -1, "bpf", why, sizeof why), -1);
	cr_expect(strstr(why, "--backend bpf"), "%s", why);
	cr_expect_eq(duet_unavailable(&two, -ENOSYS, -1, NULL, why, sizeof why), -1);
	cr_expect_str_eq(why, "this OS cannot pin a process to a CPU");
}

struct meeting {
	atomic_int arrived;
	atomic_int met;   /* sides that saw the other arrive while still running */
};

/* Arrives, then waits (at most 10 s) for the other side: both can only
 * meet when they run at the same time. */
static void meet(void *p)
{
	struct meeting *m = p;
	atomic_fetch_add(&m->arrived, 1);
	struct timespec pause = { 0, 1000000 };
	for (int i = 0; i < 10000 && atomic_load(&m->arrived) < 2; i++)
		nanosleep(&pause, NULL);
	if (atomic_load(&m->arrived) == 2)
		atomic_fetch_add(&m->met, 1);
}

Test(duet, both_sides_run_at_the_same_time)
{
	struct meeting m = { 0, 0 };
	cr_assert_eq(duet_run_pair(meet, &m, &m), 0);
	cr_expect_eq(atomic_load(&m.met), 2, "each side saw the other while running");
}

Test(duet, a_child_runs_on_its_threads_cpus)
{
	struct duet_cpus c;
	int read = duet_cpus_read(&c);
	if (read == -ENOSYS)
		cr_skip_test("this OS pins no process (macOS)");
	cr_assert_eq(read, 0);
	cr_assert_geq(c.count, 1);
	char *argv[] = { "/bin/grep", "Cpus_allowed_list", "/proc/self/status", NULL };
	struct spawn_output out;
	char want[64];
	spawn_pin_thread(&c.cpu[0], 1);
	cr_assert_eq(spawn_run(argv, NULL, 30, &out), 0);
	snprintf(want, sizeof want, "Cpus_allowed_list:\t%d\n", c.cpu[0]);
	cr_expect_str_eq(out.out, want);
	spawn_output_free(&out);
	spawn_pin_thread(NULL, 0);
	const int *cpus;
	cr_expect_eq(spawn_thread_cpus(&cpus), 0);
	if (c.count > 1) {   /* unpinned again: more than one CPU allowed */
		cr_assert_eq(spawn_run(argv, NULL, 30, &out), 0);
		cr_expect_str_neq(out.out, want, "still pinned: %s", out.out);
		spawn_output_free(&out);
	}
}
