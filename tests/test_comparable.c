/* test_comparable.c: the hardware part of gates/decide/comparable.c: which
 * baseline is of the same hardware for timing, and the note that says
 * when it is not. (The cost key's part is tests/test_cost_key.c.) */
#include <stdlib.h>
#include <string.h>
#include <criterion/criterion.h>

#include "decide/comparable.h"

/* The contexts of the two "AMD EPYC" VMs of this project (family 0x19
 * model 0x11, and 0x1a 0x02), 2 cores each. */
static struct context epyc(const char *family, const char *model)
{
	struct context c = { .cpu_model = "AMD EPYC", .cpu_count = 2,
			     .cpu_vendor = "AuthenticAMD", .cpu_stepping = "1" };
	c.cpu_family = (char *)family;
	c.cpu_model_number = (char *)model;
	return c;
}

Test(comparable_hardware, same_identity_and_cores)
{
	struct context a = epyc("0x1a", "0x02"), b = a;
	struct comparability c;
	b.os = "linux";            /* not hardware */
	b.cpu_microcode = "0x1";   /* recorded, not deciding */
	comparable_decide(&a, &b, &c);
	cr_expect(c.same_hardware);
	cr_expect(!c.identity_unknown);
	cr_expect_str_eq(c.hardware_why, "");
	char *note = comparable_note(&c, false);
	cr_expect_null(note, "%s", note);
	free(note);
}

Test(comparable_hardware, same_name_other_family_and_model)
{
	struct context base = epyc("0x19", "0x11"), cur = epyc("0x1a", "0x02");
	struct comparability c;
	comparable_decide(&base, &cur, &c);
	cr_expect(!c.same_hardware, "both are \"AMD EPYC\": family and model decide");
	cr_expect_str_eq(c.hardware_why, "AMD EPYC family 0x19 model 0x11 -> family 0x1a model 0x02");
	char *note = comparable_note(&c, false);
	cr_assert_not_null(note);
	cr_expect_str_eq(note, "hardware differs from the baseline's: AMD EPYC family 0x19 model "
			 "0x11 -> family 0x1a model 0x02: counts compare; timing against it is "
			 "information, not compared; `./gate --update-baseline` records this "
			 "machine's");
	free(note);
}

Test(comparable_hardware, stepping_alone_differs)
{
	struct context base = epyc("0x19", "0x11"), cur = base;
	struct comparability c;
	base.cpu_stepping = "0";
	comparable_decide(&base, &cur, &c);
	cr_expect(!c.same_hardware);
	cr_expect_str_eq(c.hardware_why, "AMD EPYC family 0x19 model 0x11 stepping 0 -> family "
			 "0x19 model 0x11 stepping 1");
}

Test(comparable_hardware, other_name_and_cores)
{
	struct context base = epyc("0x19", "0x11"), cur = epyc("0x19", "0x11");
	struct comparability c;
	cur.cpu_model = "AMD EPYC 7B13";
	cur.cpu_count = 16;
	comparable_decide(&base, &cur, &c);
	cr_expect(!c.same_hardware);
	cr_expect_str_eq(c.hardware_why, "AMD EPYC family 0x19 model 0x11 -> AMD EPYC 7B13 family "
			 "0x19 model 0x11; cores 2 -> 16");
	cur.cpu_model = "AMD EPYC";
	comparable_decide(&base, &cur, &c);
	cr_expect(!c.same_hardware);
	cr_expect_str_eq(c.hardware_why, "cores 2 -> 16");
}

Test(comparable_hardware, a_baseline_without_identity_is_said_once_not_a_difference)
{
	struct context base = { .cpu_model = "AMD EPYC", .cpu_count = 2 };
	struct context cur = epyc("0x1a", "0x02");
	struct comparability c;
	comparable_decide(&base, &cur, &c);
	cr_expect(c.same_hardware, "an older baseline: name and cores decide");
	cr_expect(c.identity_unknown);
	char *note = comparable_note(&c, false);
	cr_assert_not_null(note);
	cr_expect_str_eq(note, "the baseline records no CPU identity (an older version): "
			 "hardware compared by the CPU's name and cores alone; `./gate "
			 "--update-baseline` records this machine's (AMD EPYC family 0x1a model "
			 "0x02 stepping 1)");
	free(note);
	/* and by name when the name differs */
	base.cpu_model = "Intel(R) Xeon(R) Processor";
	comparable_decide(&base, &cur, &c);
	cr_expect(!c.same_hardware);
	cr_expect_str_eq(c.hardware_why, "Intel(R) Xeon(R) Processor -> AMD EPYC");
	/* neither records one (two old files, or no identity here): nothing said */
	cur = (struct context){ .cpu_model = "Intel(R) Xeon(R) Processor", .cpu_count = 2 };
	comparable_decide(&base, &cur, &c);
	cr_expect(c.same_hardware);
	cr_expect(!c.identity_unknown);
}

Test(comparable_hardware, an_unknown_name_differs)
{
	struct context base = { .cpu_model = "Intel Xeon X", .cpu_count = 2 };
	struct context cur = { .cpu_count = 2 };
	struct comparability c;
	comparable_decide(&base, &cur, &c);
	cr_expect(!c.same_hardware);
	cr_expect_str_eq(c.hardware_why, "Intel Xeon X -> unknown");
}

Test(comparable_hardware, why_is_truncated_not_overrun)
{
	char name[2000];
	memset(name, 'x', sizeof name - 1);
	name[sizeof name - 1] = '\0';
	struct context base = epyc("0x19", "0x11"), cur = epyc("0x1a", "0x02");
	struct comparability c;
	base.cpu_model = name;
	cur.cpu_count = 64;
	comparable_decide(&base, &cur, &c);
	cr_expect(!c.same_hardware);
	cr_expect_eq(strlen(c.hardware_why), sizeof c.hardware_why - 1);
}
