/* test_cpu_identity.c: gates/core/cpu_identity.c on fixed /proc/cpuinfo
 * texts (tests/data/cpuinfo/, README there), CPUID signatures and sysfs
 * cache entries. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <criterion/criterion.h>

#include "core/cpu_identity.h"
#include "core/result.h"

#define DATA "tests/data/cpuinfo/"

static char *slurp(const char *path)
{
	FILE *f = fopen(path, "rb");
	cr_assert_not_null(f, "%s", path);
	char *buf = calloc(1, 1 << 16);
	cr_assert_not_null(buf);
	size_t n = fread(buf, 1, (1 << 16) - 1, f);
	fclose(f);
	buf[n] = '\0';
	return buf;
}

/* CTX filled from the sample NAME; *FLAG the hypervisor flag. */
static void parse(const char *name, struct context *ctx, int *flag)
{
	char path[256];
	snprintf(path, sizeof path, DATA "%s", name);
	char *text = slurp(path);
	memset(ctx, 0, sizeof *ctx);
	cr_assert_eq(cpu_identity_parse_cpuinfo(text, ctx, flag), 0);
	free(text);
}

Test(cpu_identity, amd_epyc_vm)
{
	struct context c;
	int flag;
	parse("amd-epyc-1a-02-vm.txt", &c, &flag);
	cr_expect_str_eq(c.cpu_vendor, "AuthenticAMD");
	cr_expect_str_eq(c.cpu_family, "0x1a");      /* cpu family: 26 */
	cr_expect_str_eq(c.cpu_model_number, "0x02"); /* model: 2, not "model name" */
	cr_expect_str_eq(c.cpu_stepping, "1");
	cr_expect_null(c.cpu_microcode, "the guest's file has no microcode line");
	cr_expect_eq(c.cpu_threads, 2);
	cr_expect_eq(c.cpu_cores, 2);   /* core ids 0 and 1 of package 0 */
	cr_expect_eq(flag, 1);
	cr_expect_null(c.cpu_model, "the name is platform_linux.c's, not the parser's");
	result_context_free(&c);
}

Test(cpu_identity, intel_xeon_with_hyperthreads)
{
	struct context c;
	int flag;
	parse("intel-xeon-6338-bare.txt", &c, &flag);
	cr_expect_str_eq(c.cpu_vendor, "GenuineIntel");
	cr_expect_str_eq(c.cpu_family, "0x06");
	cr_expect_str_eq(c.cpu_model_number, "0x6a"); /* model: 106 */
	cr_expect_str_eq(c.cpu_stepping, "6");
	cr_expect_str_eq(c.cpu_microcode, "0xd0003a5");
	cr_expect_eq(c.cpu_threads, 4);
	cr_expect_eq(c.cpu_cores, 2, "core ids 0, 1, 0, 1: two cores");
	cr_expect_eq(flag, 0, "bare metal: no hypervisor flag");
	result_context_free(&c);
}

Test(cpu_identity, arm64_names_implementer_and_part)
{
	struct context c;
	int flag;
	parse("arm64-neoverse-n1.txt", &c, &flag);
	cr_expect_str_eq(c.cpu_vendor, "implementer 0x41");
	cr_expect_null(c.cpu_family);
	cr_expect_str_eq(c.cpu_model_number, "0xd0c");
	cr_expect_str_eq(c.cpu_stepping, "1");
	cr_expect_eq(c.cpu_threads, 2);
	cr_expect_eq(c.cpu_cores, 0, "no core id, no cpu cores: unknown, not a guess");
	cr_expect_eq(flag, -1, "no flags line: the flag is unknown");
	result_context_free(&c);
}

Test(cpu_identity, cores_from_cpu_cores_times_packages)
{
	struct context c = { 0 };
	int flag;
	const char *text = "processor\t: 0\nphysical id\t: 0\ncpu cores\t: 4\n\n"
			   "processor\t: 1\nphysical id\t: 1\ncpu cores\t: 4\n";
	cr_assert_eq(cpu_identity_parse_cpuinfo(text, &c, &flag), 0);
	cr_expect_eq(c.cpu_cores, 8);
	cr_expect_eq(c.cpu_threads, 2);
	cr_expect_null(c.cpu_vendor);
	result_context_free(&c);
}

Test(cpu_identity, fields_already_set_are_kept)
{
	struct context c = { 0 };
	int flag;
	c.cpu_vendor = strdup("from cpuid");
	c.cpu_threads = 7;
	cr_assert_eq(cpu_identity_parse_cpuinfo("vendor_id : AuthenticAMD\nflags : fpu\n", &c,
						&flag), 0);
	cr_expect_str_eq(c.cpu_vendor, "from cpuid");
	cr_expect_eq(c.cpu_threads, 7);
	cr_expect_eq(flag, 0, "'hypervisor' is a whole word only");
	cr_assert_eq(cpu_identity_parse_cpuinfo("flags : fpu hypervisorx\n", &c, &flag), 0);
	cr_expect_eq(flag, 0);
	result_context_free(&c);
}

Test(cpu_identity, hypervisor_signatures)
{
	char out[32];
	cpu_identity_hypervisor_name("KVMKVMKVM\0\0\0", out, sizeof out);
	cr_expect_str_eq(out, "KVM");
	cpu_identity_hypervisor_name("Microsoft Hv", out, sizeof out);
	cr_expect_str_eq(out, "Hyper-V");
	cpu_identity_hypervisor_name("XenVMMXenVMM", out, sizeof out);
	cr_expect_str_eq(out, "Xen");
	cpu_identity_hypervisor_name("  Firecrack\x01", out, sizeof out);
	cr_expect_str_eq(out, "Firecrack", "an unknown one: its printable text, trimmed");
	cpu_identity_hypervisor_name("\0\0\0\0\0\0\0\0\0\0\0\0", out, sizeof out);
	cr_expect_str_eq(out, "");
	cpu_identity_hypervisor_name("VMwareVMware", out, 4);
	cr_expect_str_eq(out, "VMw", "truncated to the buffer");
}

Test(cpu_identity, caches_listed_in_sysfs_order)
{
	char *caches = NULL;
	cr_assert_eq(cpu_identity_add_cache(&caches, 1, "Data", "48K"), 0);
	cr_assert_eq(cpu_identity_add_cache(&caches, 1, "Instruction", "32K"), 0);
	cr_assert_eq(cpu_identity_add_cache(&caches, 2, "Unified", "1024K"), 0);
	cr_assert_eq(cpu_identity_add_cache(&caches, 3, "Unified", "32768K"), 0);
	cr_expect_str_eq(caches, "L1d 48K, L1i 32K, L2 1024K, L3 32768K");
	free(caches);
}

Test(cpu_identity, text_and_known)
{
	struct context c = { .cpu_model = "AMD EPYC" };
	char out[128];
	cr_expect(!cpu_identity_known(&c), "a name alone is no identity");
	cpu_identity_text(&c, out, sizeof out);
	cr_expect_str_eq(out, "AMD EPYC");
	c.cpu_family = "0x1a";
	c.cpu_model_number = "0x02";
	c.cpu_stepping = "1";
	cr_expect(cpu_identity_known(&c));
	cpu_identity_text(&c, out, sizeof out);
	cr_expect_str_eq(out, "AMD EPYC family 0x1a model 0x02 stepping 1");
	cpu_identity_text(&c, out, 12);
	cr_expect_str_eq(out, "AMD EPYC fa");
}
