/* cost_key.c: the key lines of ld.so's diagnostics and the ifunc variant
 * sets (cost_key.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/cost_key.h"
#include "core/digest.h"

#define CPU_PREFIX "x86.cpu_features."

/* Whether LINE (LEN bytes) starts with S. */
static int starts(const char *line, size_t len, const char *s)
{
	size_t n = strlen(s);
	return len >= n && !memcmp(line, s, n);
}

/* Whether the name part of LINE (before '=') ends with S. */
static int name_ends(const char *line, size_t len, const char *s)
{
	const char *eq = memchr(line, '=', len);
	size_t n = strlen(s), name = eq ? (size_t)(eq - line) : len;
	return name >= n && !memcmp(line + name - n, s, n);
}

int cost_key_is_key_line(const char *line, size_t len)
{
	if (!starts(line, len, CPU_PREFIX))
		return 0;
	line += strlen(CPU_PREFIX);
	len -= strlen(CPU_PREFIX);
	return starts(line, len, "isa_1=") || starts(line, len, "preferred.") ||
	       name_ends(line, len, "_threshold") || starts(line, len, "data_cache_size=") ||
	       starts(line, len, "shared_cache_size=");
}

char *cost_key_cpu_lines(const char *diag)
{
	size_t used = 0;
	char *out = malloc(strlen(diag) + 2);
	if (!out)
		return NULL;
	for (const char *p = diag; *p;) {
		size_t len = strcspn(p, "\n");
		if (starts(p, len, CPU_PREFIX) || starts(p, len, "version.")) {
			memcpy(out + used, p, len);
			used += len;
			out[used++] = '\n';
		}
		p += len + (p[len] == '\n');
	}
	out[used] = '\0';
	return out;
}

void cost_key_summary(const char *cpu_lines, char *out, size_t size)
{
	uint64_t h = DIGEST_FNV1A64_OFFSET;
	char isa[32] = "?";
	size_t lines = 0, keys = 0;
	for (const char *p = cpu_lines ? cpu_lines : ""; *p;) {
		size_t len = strcspn(p, "\n");
		if (starts(p, len, CPU_PREFIX)) {
			lines++;
			if (cost_key_is_key_line(p, len)) {
				h = digest_fnv1a64(h, p, len + 1);
				keys++;
			}
			if (starts(p, len, CPU_PREFIX "isa_1="))
				snprintf(isa, sizeof isa, "%.*s", (int)(len - strlen(CPU_PREFIX "isa_1=")),
					 p + strlen(CPU_PREFIX "isa_1="));
		}
		p += len + (p[len] == '\n');
	}
	if (!keys)
		snprintf(out, size, "unknown (ld.so --list-diagnostics printed no cpu_features)");
	else
		snprintf(out, size, "fnv1a64:%016llx (isa_1 %s, %zu key lines of %zu)",
			 (unsigned long long)h, isa, keys, lines);
}

/* The line of TEXT whose name (before '=') is NAME (NLEN bytes): its start,
 * or NULL; *LEN its length. */
static const char *find_line(const char *text, const char *name, size_t nlen, size_t *len)
{
	for (const char *p = text; *p;) {
		size_t l = strcspn(p, "\n");
		if (l > nlen && p[nlen] == '=' && !memcmp(p, name, nlen)) {
			*len = l;
			return p;
		}
		p += l + (p[l] == '\n');
	}
	return NULL;
}

/* Appends "; " (unless first) and the formatted text to WHY. */
static void why_add(char *why, size_t size, const char *name, size_t nlen, const char *a,
		    size_t alen, const char *b, size_t blen)
{
	size_t used = strlen(why);
	if (size == 0 || used + 1 >= size)
		return;
	snprintf(why + used, size - used, "%s%.*s %.*s -> %.*s", used ? "; " : "", (int)nlen,
		 name, (int)alen, a, (int)blen, b);
}

/* One side's lines against the other's: every CPU line of FROM whose value
 * in TO differs or is absent (MISSING_FIRST: FROM is B, so only absent
 * ones count, the differing ones having been seen from A). */
static void diff_lines(const char *from, const char *to, int from_is_b, char *key_why,
		       size_t key_size, int *keys, char *out_why, size_t out_size, int *outside)
{
	for (const char *p = from; *p;) {
		size_t len = strcspn(p, "\n"), olen = 0;
		const char *eq = memchr(p, '=', len);
		if (eq && starts(p, len, CPU_PREFIX)) {
			size_t nlen = (size_t)(eq - p);
			const char *o = find_line(to, p, nlen, &olen);
			int differs = o ? (!from_is_b && (olen != len || memcmp(o, p, len))) : 1;
			if (differs) {
				const char *va = eq + 1, *vb = o ? o + nlen + 1 : "(none)";
				size_t la = len - nlen - 1, lb = o ? olen - nlen - 1 : 6;
				if (from_is_b) {   /* present in B only */
					const char *t = va;
					size_t tl = la;
					va = "(none)", la = 6, vb = t, lb = tl;
				}
				if (cost_key_is_key_line(p, len)) {
					if (++*keys <= 3)
						why_add(key_why, key_size, p, nlen, va, la, vb, lb);
				} else if (++*outside <= 2) {
					why_add(out_why, out_size, p, nlen, va, la, vb, lb);
				}
			}
		}
		p += len + (p[len] == '\n');
	}
}

int cost_key_diff_cpu(const char *a, const char *b, char *key_why, size_t key_size,
		      char *outside_why, size_t outside_size, int *outside)
{
	int keys = 0;
	if (key_size)
		key_why[0] = '\0';
	if (outside_size)
		outside_why[0] = '\0';
	*outside = 0;
	diff_lines(a, b, 0, key_why, key_size, &keys, outside_why, outside_size, outside);
	diff_lines(b, a, 1, key_why, key_size, &keys, outside_why, outside_size, outside);
	if (keys > 3) {
		size_t used = strlen(key_why);
		snprintf(key_why + used, key_size - used, " and %d more", keys - 3);
	}
	return keys;
}

/* The instruction sets that name glibc's x86-64 variants
 * (sysdeps/x86_64/multiarch: __memcpy_avx_unaligned_erms, __strlen_evex). */
static const char *const isa_words[] = {
	"sse2", "ssse3", "sse4_1", "sse4_2", "avx", "avx2", "avx512", "evex", "evex512",
	"erms", NULL,
};

/* Length of the function part of variant NAME (after "__", up to the
 * "_<isa>" word), or 0 when NAME is not a variant. */
static size_t family_len(const char *name, size_t len)
{
	if (len < 4 || name[0] != '_' || name[1] != '_' || name[2] == '_')
		return 0;
	for (size_t i = 3; i < len; i++) {
		if (name[i] != '_')
			continue;
		for (int w = 0; isa_words[w]; w++) {
			size_t wl = strlen(isa_words[w]);
			if (i + 1 + wl <= len && !memcmp(name + i + 1, isa_words[w], wl) &&
			    (i + 1 + wl == len || name[i + 1 + wl] == '_'))
				return i - 2;
		}
	}
	return 0;
}

int cost_key_is_ifunc_variant(const char *name, size_t len)
{
	return family_len(name, len) > 0 && !memchr(name, ',', len) && !memchr(name, '@', len);
}

int cost_key_set_add(char **set, const char *name, size_t len)
{
	const char *s = *set ? *set : "";
	const char *p = s;
	/* find the sorted position, or the same name */
	while (*p) {
		size_t l = strcspn(p, ",");
		int c = strncmp(p, name, l < len ? l : len);
		if (c == 0 && l == len)
			return 0;
		if (c > 0 || (c == 0 && l > len))
			break;
		p += l + (p[l] == ',');
	}
	size_t at = (size_t)(p - s), old = strlen(s);
	char *out = malloc(old + len + 2);
	if (!out)
		return -ENOMEM;
	if (at < old)   /* before the name at AT: "...," NAME "," rest */
		snprintf(out, old + len + 2, "%.*s%.*s,%s", (int)at, s, (int)len, name, s + at);
	else            /* after the last name */
		snprintf(out, old + len + 2, "%s%s%.*s", s, old ? "," : "", (int)len, name);
	free(*set);
	*set = out;
	return 0;
}

/* The variants of function FAM (FLEN bytes) in SET, comma-separated, into
 * OUT; returns how many. */
static int variants_of(const char *set, const char *fam, size_t flen, char *out, size_t size)
{
	int n = 0;
	out[0] = '\0';
	for (const char *p = set; *p;) {
		size_t l = strcspn(p, ",");
		if (family_len(p, l) == flen && !memcmp(p + 2, fam, flen)) {
			size_t used = strlen(out);
			snprintf(out + used, size - used, "%s%.*s", n ? "+" : "", (int)l, p);
			n++;
		}
		p += l + (p[l] == ',');
	}
	return n;
}

int cost_key_diff_ifuncs(const char *a, const char *b, char *why, size_t size)
{
	int count = 0;
	char va[512], vb[512];
	if (size)
		why[0] = '\0';
	a = a ? a : "";
	b = b ? b : "";
	for (const char *p = a; *p;) {
		size_t l = strcspn(p, ","), flen = family_len(p, l);
		/* each function once: at its first variant in A */
		int first = 1;
		for (const char *q = a; flen && q < p;) {
			size_t ql = strcspn(q, ",");
			if (family_len(q, ql) == flen && !memcmp(q + 2, p + 2, flen))
				first = 0;
			q += ql + (q[ql] == ',');
		}
		if (flen && first && variants_of(b, p + 2, flen, vb, sizeof vb) > 0) {
			variants_of(a, p + 2, flen, va, sizeof va);
			if (strcmp(va, vb)) {
				size_t used = strlen(why);
				if (count < 3 && used + 1 < size)
					snprintf(why + used, size - used, "%s%.*s: %s -> %s",
						 used ? "; " : "", (int)flen, p + 2, va, vb);
				count++;
			}
		}
		p += l + (p[l] == ',');
	}
	if (count > 3) {
		size_t used = strlen(why);
		snprintf(why + used, size - used, " and %d more", count - 3);
	}
	return count;
}
