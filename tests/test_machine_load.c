/* test_machine_load.c: gates/sample/machine_load.c (hand-computed shares)
 * and, on Linux, gates/os/machine_load_linux.c reading this machine. */
#include <criterion/criterion.h>
#include <errno.h>

#include "sample/machine_load.h"

static struct machine_load at(double wall_ms, double busy_ms, double own_ms, int cpus)
{
	struct machine_load m = { wall_ms * 1e6, busy_ms * 1e6, own_ms * 1e6, cpus };
	return m;
}

Test(machine_load, the_share_others_took)
{
	struct machine_load a = at(0, 1000, 300, 2);
	/* 200 ms on 2 CPUs: 260 ms busy, 40 of them the gate's and its kernels'
	 * own; less one 10 ms tick per CPU: 200 of 400 ms, 500 per mille */
	struct machine_load b = at(200, 1260, 340, 2);
	cr_expect_eq(machine_load_others_permille(&a, &b), 500);
	/* the gate alone: nothing left after the ticks */
	b = at(200, 1045, 340, 2);
	cr_expect_eq(machine_load_others_permille(&a, &b), 0);
	/* at most the whole machine; no time, no share */
	b = at(10, 5000, 300, 2);
	cr_expect_eq(machine_load_others_permille(&a, &b), 1000);
	b = at(0, 1260, 340, 2);
	cr_expect_eq(machine_load_others_permille(&a, &b), 0);
}

Test(machine_load, this_machine_reads)
{
	struct machine_load a, b;
	int ret = machine_load_read(&a);
#ifndef __linux__
	cr_expect_eq(ret, -ENOSYS);
	return;
#endif
	cr_assert_eq(ret, 0);
	cr_assert_eq(machine_load_read(&b), 0);
	cr_expect_geq(a.cpus, 1);
	cr_expect(b.wall_ns >= a.wall_ns && b.busy_ns >= a.busy_ns && b.own_ns >= a.own_ns);
	cr_expect_leq(machine_load_others_permille(&a, &b), 1000);
}
