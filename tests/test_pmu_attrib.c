/* test_pmu_attrib.c: the per-call PMU arithmetic of perf/bpf/pmu_attrib.h
 * (the same code the BPF program runs), on hand-computed readings. */
#include <criterion/criterion.h>

#include "bpf/pmu_attrib.h"

Test(pmu_attrib, attributes_the_difference_of_one_call)
{
	struct pmu_fn_totals t = { 0 };
	struct pmu_reading in = { 1000, 3000, 1 }, out = { 1085, 3290, 1 };
	cr_assert_eq(pmu_attrib_call(&t, &in, &out), 0);
	cr_expect_eq(t.calls, 1);
	cr_expect_eq(t.instructions, 85);
	cr_expect_eq(t.cycles, 290);
	cr_expect_eq(t.dropped, 0);
}

Test(pmu_attrib, drops_a_call_that_changed_cpu_or_went_backwards)
{
	struct pmu_fn_totals t = { 0 };
	struct pmu_reading in = { 1000, 3000, 0 };
	struct pmu_reading moved = { 1085, 3290, 1 }, back = { 900, 3290, 0 },
			   back_cycles = { 1100, 2000, 0 };
	cr_expect_eq(pmu_attrib_call(&t, &in, &moved), -1);
	cr_expect_eq(pmu_attrib_call(&t, &in, &back), -1);
	cr_expect_eq(pmu_attrib_call(&t, &in, &back_cycles), -1);
	cr_expect_eq(t.calls, 0);
	cr_expect_eq(t.instructions, 0);
	cr_expect_eq(t.dropped, 3);
}

/* malloc and free kept apart, as seed 001 asks: 3 mallocs of 60, 70, 80
 * instructions and 2 frees of 40 and 45, merged over two CPUs. */
Test(pmu_attrib, malloc_and_free_per_call_over_cpus)
{
	struct pmu_fn_totals cpu0[PMU_FN_COUNT] = { { 0 } }, cpu1[PMU_FN_COUNT] = { { 0 } };
	struct pmu_fn_totals sum[PMU_FN_COUNT] = { { 0 } };
	struct pmu_reading a = { 0, 0, 0 };
	struct pmu_reading m1 = { 60, 100, 0 }, m2 = { 70, 120, 0 }, f1 = { 40, 50, 0 };
	struct pmu_reading b = { 10, 10, 1 }, m3 = { 90, 150, 1 }, f2 = { 55, 70, 1 };
	pmu_attrib_call(&cpu0[PMU_FN_MALLOC], &a, &m1);
	pmu_attrib_call(&cpu0[PMU_FN_MALLOC], &a, &m2);
	pmu_attrib_call(&cpu0[PMU_FN_FREE], &a, &f1);
	pmu_attrib_call(&cpu1[PMU_FN_MALLOC], &b, &m3);
	pmu_attrib_call(&cpu1[PMU_FN_FREE], &b, &f2);
	for (int fn = 0; fn < PMU_FN_COUNT; fn++) {
		pmu_attrib_merge(&sum[fn], &cpu0[fn]);
		pmu_attrib_merge(&sum[fn], &cpu1[fn]);
	}
	cr_expect_eq(sum[PMU_FN_MALLOC].calls, 3);
	cr_expect_eq(sum[PMU_FN_MALLOC].instructions, 210);
	cr_expect_eq(sum[PMU_FN_MALLOC].cycles, 360);
	cr_expect_eq(sum[PMU_FN_FREE].calls, 2);
	cr_expect_eq(sum[PMU_FN_FREE].instructions, 85);
	cr_expect_eq(pmu_attrib_per_call_x100(sum[PMU_FN_MALLOC].instructions,
					      sum[PMU_FN_MALLOC].calls), 7000);
	cr_expect_eq(pmu_attrib_per_call_x100(sum[PMU_FN_FREE].instructions,
					      sum[PMU_FN_FREE].calls), 4250);
	cr_expect_eq(pmu_attrib_per_call_x100(10, 3), 333);   /* 3.333 rounded */
	cr_expect_eq(pmu_attrib_per_call_x100(5, 0), 0);
}
