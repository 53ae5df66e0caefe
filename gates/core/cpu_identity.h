/* cpu_identity.h: which CPU this is, beyond its name: vendor, family,
 * model and stepping (two machines named "AMD EPYC" can be a Zen 3 and a Zen 5),
 * microcode, caches, cores and threads, hypervisor.
 *
 * The parsers are pure functions of text, tested on fixed samples
 * (tests/test_cpu_identity.c); platform_<os>.c reads the files and calls
 * them. Every field stays NULL (0 for counts) when its source does not
 * say: unknown is never written as a value. */
#ifndef GATE_CPU_IDENTITY_H
#define GATE_CPU_IDENTITY_H

#include <stddef.h>
#include "core/result.h"

/* Fills CTX's identity fields that are still NULL or 0 from TEXT, the
 * contents of Linux's /proc/cpuinfo: vendor_id, cpu family and model (as
 * hex, "0x19"), stepping, microcode of the first processor; threads (the
 * processor entries) and cores (distinct physical id / core id pairs, else
 * "cpu cores" times the packages); on arm64 "CPU implementer", "CPU part"
 * and "CPU revision" as vendor, model and stepping. Sets *HYPERVISOR_FLAG
 * to 1 when the flags name "hypervisor", 0 when they do not, -1 when TEXT
 * has no flags line. Returns 0 or -ENOMEM. */
int cpu_identity_parse_cpuinfo(const char *text, struct context *ctx, int *hypervisor_flag);

/* The name of the hypervisor whose CPUID leaf 0x40000000 signature is
 * SIG (12 bytes, EBX ECX EDX): "KVM", "Hyper-V", "VMware", "Xen", "QEMU
 * TCG", ..., else the signature's printable characters, trimmed; "" when
 * it has none. Into OUT (SIZE bytes). */
void cpu_identity_hypervisor_name(const char sig[12], char *out, size_t size);

/* Appends the "L1d 48K, L1i 32K, L2 1024K, L3 32768K" entry of one cache
 * (LEVEL 1..4, TYPE "Data", "Instruction" or "Unified", SIZE as sysfs
 * writes it, "48K") to *CACHES, a malloc'd string or NULL. Returns 0 or
 * -ENOMEM. */
int cpu_identity_add_cache(char **caches, int level, const char *type, const char *size);

/* On x86 (GCC or Clang), fills the fields still NULL from CPUID: vendor,
 * family, model, stepping (leaf 1, with the extended family and model as
 * the SDM and the APM define the displayed values) and, when leaf 1 says
 * a hypervisor is present, its name from leaf 0x40000000 (else "none").
 * Elsewhere it does nothing. Returns 0 or -ENOMEM. */
int cpu_identity_cpuid(struct context *ctx);

/* "AMD EPYC family 0x19 model 0x11 stepping 1": the name, then what of
 * the identity CTX records, into OUT (SIZE bytes). */
void cpu_identity_text(const struct context *ctx, char *out, size_t size);

/* Whether CTX records an identity beyond the name (vendor, family or
 * model): a baseline of an older allocgate records none. */
int cpu_identity_known(const struct context *ctx);

#endif
