/* test_configure.c: configure.py's MSVC command lines (cl, clang-cl),
 * checked in the ninja file it generates and in ninja's dry run of it:
 * generated only, never compiled, since no Windows SDK exists here. A
 * stand-in "clang-cl" script (it creates what /Fe names and succeeds)
 * answers configure.py's compiler check; jansson comes from a .pc file
 * given with --with-jansson. The GCC command lines are what every other
 * test builds with. Also: the package database as an input of the ninja
 * file, so that a package installed after configuring (ci/test.sh
 * installing Criterion after ./gate) makes ninja configure again; and the
 * directories where the optional dependencies were looked for, so that
 * one installed without the package database does too. */
#include <criterion/criterion.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

static char tmpdir[256];
static char text[1 << 18];

static void teardown(void)
{
	char cmd[300];
	if (!tmpdir[0])
		return;
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmpdir);
	cr_expect(system(cmd) == 0);
}

/* Writes TEXT to DIR/NAME. */
static void write_file(const char *name, const char *contents)
{
	char path[512];
	snprintf(path, sizeof path, "%s/%s", tmpdir, name);
	FILE *f = fopen(path, "w");
	cr_assert(f, "%s: %s", path, strerror(errno));
	fputs(contents, f);
	fclose(f);
}

/* Runs CMD with its stdout and stderr into out; returns its exit status. */
static int run_into(const char *cmd, char *out, size_t size)
{
	FILE *p = popen(cmd, "r");
	cr_assert(p, "%s", cmd);
	size_t n = fread(out, 1, size - 1, p);
	out[n] = '\0';
	int status = pclose(p);
	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

/* Reads tmpdir/NAME into text ("" when it cannot be read). */
static void read_text(const char *name)
{
	char path[512];
	snprintf(path, sizeof path, "%s/%s", tmpdir, name);
	FILE *f = fopen(path, "r");
	size_t n = f ? fread(text, 1, sizeof text - 1, f) : 0;
	text[n] = '\0';
	if (f)
		fclose(f);
}

/* Runs configure.py with CC=tmpdir/clang-cl into tmpdir/msvc.ninja and
 * reads the file into text; returns configure.py's exit status. */
static int configure_msvc(const char *extra_args)
{
	char cmd[2048];
	snprintf(tmpdir, sizeof tmpdir, "/tmp/allocgate-msvc-XXXXXX");
	cr_assert(mkdtemp(tmpdir), "mkdtemp: %s", strerror(errno));
	write_file("clang-cl", "#!/bin/sh\nfor a; do case $a in /Fe*) : >\"${a#/Fe}\" ;; esac; "
		   "done\nexit 0\n");
	snprintf(cmd, sizeof cmd, "chmod +x %s/clang-cl && mkdir -p %s/prefix/lib/pkgconfig",
		 tmpdir, tmpdir);
	cr_assert(system(cmd) == 0);
	write_file("prefix/lib/pkgconfig/jansson.pc", "prefix=/opt/jansson\nName: jansson\n"
		   "Description: stand-in\nVersion: 2.14\nLibs: -L${prefix}/lib -ljansson\n"
		   "Cflags: -I${prefix}/include\n");
	snprintf(cmd, sizeof cmd, "CC=%s/clang-cl python3 configure.py --with-jansson %s/prefix "
		 "--builddir %s/b --ninja-file %s/msvc.ninja %s >%s/configure.log 2>&1", tmpdir,
		 tmpdir, tmpdir, tmpdir, extra_args, tmpdir);
	int status = system(cmd);
	read_text("msvc.ninja");
	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

TestSuite(configure, .fini = teardown, .timeout = 60);

Test(configure, clang_cl_gets_msvc_rules)
{
	cr_assert_eq(configure_msvc(""), 0, "configure.py failed, see %s/configure.log", tmpdir);
	static const char *const want[] = {
		"cflags = /nologo /std:c11 /W4 /Zi",
		"/O2 /DNDEBUG",
		"/Iperf /Igates",
		"ar = llvm-lib\n",
		"command = $cc /showIncludes $cflags $extra_cflags /c $in /Fo$out\n  deps = msvc\n",
		"command = $ar /nologo /out:$out $in\n",
		"command = $cc /nologo $in /Fe$out /link $ldflags $extra_libs $libs\n",
		"jansson_libs = /LIBPATH:/opt/jansson/lib jansson.lib\n",
		"/b/obj/gates/core/version.obj: cc gates/core/version.c | ",
		"/b/gate_version.h\n  extra_cflags = /I",
		"/b/obj/gates/os/spawn_windows.obj: cc gates/os/spawn_windows.c\n",
		"/b/gate.exe: link ",
		"/b/libgate.lib",
		"/b/tests/kernels/toy.exe: link ",
		"extra_cflags = /FIperf/allocgate/alloc_count.h\n",
	};
	for (size_t i = 0; i < sizeof want / sizeof want[0]; i++)
		cr_expect(strstr(text, want[i]), "no '%s' in:\n%.3000s", want[i], text);
	/* nothing of GCC's command line, nor a POSIX source */
	static const char *const unwanted[] = {
		"-MMD", "deps = gcc", "-std=c11", "-pthread", "-include ", "_posix.", "_linux.",
		" rm -f", "'\"",
	};
	for (size_t i = 0; i < sizeof unwanted / sizeof unwanted[0]; i++)
		cr_expect_null(strstr(text, unwanted[i]), "'%s' in:\n%.3000s", unwanted[i], text);
}

/* ninja reads the file and plans gate.exe's link with cl's flags */
Test(configure, msvc_ninja_file_parses)
{
	char cmd[1024], out[4096];
	cr_assert_eq(configure_msvc("--debug --warnings-as-errors"), 0);
	cr_expect(strstr(text, "/Od") && strstr(text, "/WX") && !strstr(text, "/O2"), "%.2000s",
		  text);
	snprintf(cmd, sizeof cmd, "ninja -f %s/msvc.ninja -n -v %s/b/gate.exe 2>&1 | tail -n 1",
		 tmpdir, tmpdir);
	cr_expect_eq(run_into(cmd, out, sizeof out), 0);
	cr_expect(strstr(out, "/nologo") && strstr(out, "/Fe") && strstr(out, "/gate.exe /link "),
		  "ninja -n: %s", out);
}

Test(configure, msvc_sanitizers_other_than_address_are_refused)
{
	cr_expect_neq(configure_msvc("--sanitize=undefined"), 0);
}

/* Configures into tmpdir/x.ninja (builddir tmpdir/b) with a stand-in
 * package database tmpdir/status dated DATE (touch -d); the ninja file in
 * text. Then "ninja" runs ninja on that file with the same database and
 * asks for the file itself. */
static char ninja[1200];

static void configure_with_package_db(const char *date)
{
	char cmd[2048], out[8192];
	snprintf(tmpdir, sizeof tmpdir, "/tmp/allocgate-pkgdb-XXXXXX");
	cr_assert(mkdtemp(tmpdir), "mkdtemp: %s", strerror(errno));
	write_file("status", "Package: stand-in\n");
	snprintf(cmd, sizeof cmd, "touch -d '%s' %s/status && GATE_PACKAGE_DB=%s/status python3 "
		 "configure.py --builddir %s/b --ninja-file %s/x.ninja 2>&1", date, tmpdir, tmpdir,
		 tmpdir, tmpdir);
	cr_assert_eq(run_into(cmd, out, sizeof out), 0, "%s", out);
	read_text("x.ninja");
	snprintf(ninja, sizeof ninja, "GATE_PACKAGE_DB=%s/status ninja -f %s/x.ninja %s/x.ninja "
		 "2>&1", tmpdir, tmpdir, tmpdir);
}

/* A package installed after configuring (ci/test.sh installs Criterion
 * after ./gate wrote build.ninja without tests) makes ninja configure
 * again: the package database is an input of the ninja file. */
Test(configure, a_changed_package_database_configures_again)
{
	char out[8192], want[600], touch[1200];
	configure_with_package_db("-1 minute");
	snprintf(want, sizeof want, "%s/x.ninja: configure | configure.py %s/status ", tmpdir,
		 tmpdir);
	cr_expect(strstr(text, want), "no '%s' in the ninja file", want);

	/* unchanged: nothing to do; the database rewritten after the ninja
	 * file (the ninja file dated back instead of waiting): CONFIGURE once */
	cr_assert_eq(run_into(ninja, out, sizeof out), 0, "%s", out);
	cr_expect(strstr(out, "no work to do") && !strstr(out, "CONFIGURE"), "%s", out);
	snprintf(touch, sizeof touch, "touch -d '-2 minutes' %s/x.ninja && touch %s/status",
		 tmpdir, tmpdir);
	cr_assert_eq(system(touch), 0);
	cr_assert_eq(run_into(ninja, out, sizeof out), 0, "%s", out);
	cr_expect(strstr(out, "CONFIGURE"), "the ninja file was not made again:\n%s", out);
	cr_assert_eq(run_into(ninja, out, sizeof out), 0, "%s", out);
	cr_expect(strstr(out, "no work to do"), "configured again a second time:\n%s", out);
}

/* A database dated in the future (a clock set back since the last
 * install) would make ninja configure again and again, failing after 100
 * tries: it is left out of the inputs. */
Test(configure, a_package_database_from_the_future_is_not_an_input)
{
	char out[8192];
	configure_with_package_db("+1 hour");
	cr_expect_null(strstr(text, "/status"), "the future database is an input:\n%.2000s", text);
	cr_assert_eq(run_into(ninja, out, sizeof out), 0, "%s", out);
	cr_expect(strstr(out, "no work to do") && !strstr(out, "CONFIGURE"), "%s", out);
}

/* A header or a .pc file that appears where configure.py looked for it
 * (a compiler include directory, pkg-config's path) makes ninja configure
 * again without a package database (a source install, Homebrew): the
 * directories are inputs of the ninja file, and one that disappears
 * configures again rather than stopping ninja. */
Test(configure, an_optional_dependency_installed_later_configures_again)
{
	char cmd[4096], out[8192], want[700], ninja_cmd[2048];
	snprintf(tmpdir, sizeof tmpdir, "/tmp/allocgate-probed-XXXXXX");
	cr_assert(mkdtemp(tmpdir), "mkdtemp: %s", strerror(errno));
	write_file("status", "Package: stand-in\n");
	snprintf(cmd, sizeof cmd, "mkdir %s/inc %s/pc && touch -d '-1 minute' %s/status %s/inc %s/pc",
		 tmpdir, tmpdir, tmpdir, tmpdir, tmpdir);
	cr_assert_eq(system(cmd), 0);
	/* the environment configure.py ran with, for ninja's re-runs too */
	char env[1200];
	snprintf(env, sizeof env, "GATE_PACKAGE_DB=%s/status CFLAGS=-I%s/inc PKG_CONFIG_PATH=%s/pc",
		 tmpdir, tmpdir, tmpdir);
	snprintf(cmd, sizeof cmd, "%s python3 configure.py --builddir %s/b --ninja-file %s/x.ninja "
		 "2>&1", env, tmpdir, tmpdir);
	cr_assert_eq(run_into(cmd, out, sizeof out), 0, "%s", out);
	read_text("x.ninja");
	snprintf(want, sizeof want, " %s/inc ", tmpdir);
	cr_expect(strstr(text, want), "the include directory is no input:\n%.3000s", text);
	snprintf(want, sizeof want, " %s/pc", tmpdir);
	cr_expect(strstr(text, want), "pkg-config's directory is no input:\n%.3000s", text);
	snprintf(want, sizeof want, "build %s/inc: phony\n", tmpdir);
	cr_expect(strstr(text, want), "no phony rule for it:\n%.3000s", text);

	snprintf(ninja_cmd, sizeof ninja_cmd, "%s ninja -f %s/x.ninja %s/x.ninja 2>&1", env, tmpdir,
		 tmpdir);
	cr_assert_eq(run_into(ninja_cmd, out, sizeof out), 0, "%s", out);
	cr_expect(strstr(out, "no work to do"), "%s", out);
	/* valgrind's headers appear in the include directory */
	snprintf(cmd, sizeof cmd, "touch -d '-30 seconds' %s/x.ninja && mkdir %s/inc/valgrind && "
		 "touch %s/inc/valgrind/callgrind.h", tmpdir, tmpdir, tmpdir);
	cr_assert_eq(system(cmd), 0);
	cr_assert_eq(run_into(ninja_cmd, out, sizeof out), 0, "%s", out);
	cr_expect(strstr(out, "CONFIGURE"), "a new header did not configure again:\n%s", out);
	read_text("x.ninja");
	snprintf(want, sizeof want, " %s/inc/valgrind ", tmpdir);
	cr_expect(strstr(text, want), "the found directory is no input:\n%.3000s", text);
	cr_assert_eq(run_into(ninja_cmd, out, sizeof out), 0, "%s", out);
	cr_expect(strstr(out, "no work to do"), "configured again a second time:\n%s", out);
	/* a package's .pc file appears */
	snprintf(cmd, sizeof cmd, "touch -d '-30 seconds' %s/x.ninja && touch %s/pc/stand-in.pc",
		 tmpdir, tmpdir);
	cr_assert_eq(system(cmd), 0);
	cr_assert_eq(run_into(ninja_cmd, out, sizeof out), 0, "%s", out);
	cr_expect(strstr(out, "CONFIGURE"), "a new .pc file did not configure again:\n%s", out);
	/* the headers go away: configured again, not "missing and no known rule" */
	snprintf(cmd, sizeof cmd, "rm -r %s/inc/valgrind", tmpdir);
	cr_assert_eq(system(cmd), 0);
	cr_assert_eq(run_into(ninja_cmd, out, sizeof out), 0, "%s", out);
	cr_expect(strstr(out, "CONFIGURE"), "%s", out);
}

/* The version the gate reports follows its checkout without configuring
 * again: in a scratch clone, the header configure.py writes holds `git
 * describe`; a commit (HEAD's reflog, an input of the header's edge) or
 * an edited source makes ninja write it again, and a rewrite that would
 * change nothing leaves the file untouched (so nothing recompiles). */
Test(configure, the_version_follows_the_checkout)
{
	char cmd[4096], out[8192], want[300], build_header[600];
	if (system("git --version >/dev/null 2>&1") != 0 ||
	    system("git rev-parse --git-dir >/dev/null 2>&1") != 0)
		cr_skip_test("git, or a git checkout of allocgate, is needed");
	snprintf(tmpdir, sizeof tmpdir, "/tmp/allocgate-version-XXXXXX");
	cr_assert(mkdtemp(tmpdir), "mkdtemp: %s", strerror(errno));
	/* the clone gets this tree's build files, committed: what is tested is
	 * the configure.py at hand, not the last commit's */
	snprintf(cmd, sizeof cmd, "root=$(pwd) && git clone -q . %s/repo && cd %s/repo && "
		 "cp -R \"$root/configure.py\" \"$root/gates\" \"$root/perf\" \"$root/kernels\" . && "
		 "git add -A && git -c user.name=t -c user.email=t@t commit -q --allow-empty -m t && "
		 "python3 configure.py >/dev/null 2>&1 && git describe --always --dirty --tags",
		 tmpdir, tmpdir);
	cr_assert_eq(run_into(cmd, out, sizeof out), 0, "%s", out);
	out[strcspn(out, "\n")] = '\0';
	cr_assert(out[0] && !strstr(out, "dirty"), "describe: %s", out);
	snprintf(want, sizeof want, "#define GATE_VERSION \"%s\"\n", out);
	read_text("repo/build/gate_version.h");
	cr_expect(strstr(text, want), "no '%s' in:\n%s", want, text);
	read_text("repo/build.ninja");
	cr_expect(strstr(text, "build build/gate_version.h: version | ") &&
		  strstr(text, "/logs/HEAD ") && strstr(text, " gates/core/version.c "),
		  "no version edge with HEAD's reflog and the sources:\n%.3000s", text);

	snprintf(build_header, sizeof build_header,
		 "cd %s/repo && ninja build/gate_version.h >/dev/null 2>&1 && "
		 "cat build/gate_version.h", tmpdir);
	/* a commit: the new hash, without configuring again */
	snprintf(cmd, sizeof cmd, "cd %s/repo && touch -d '-1 minute' build/gate_version.h && "
		 "git -c user.name=t -c user.email=t@t commit -q --allow-empty -m t && "
		 "git rev-parse --short HEAD", tmpdir);
	cr_assert_eq(run_into(cmd, out, sizeof out), 0, "%s", out);
	out[strcspn(out, "\n")] = '\0';
	snprintf(want, sizeof want, "#define GATE_VERSION \"%s\"\n", out);
	cr_assert_eq(run_into(build_header, text, sizeof text), 0, "%s", text);
	cr_expect(strstr(text, want), "after a commit, no '%s' in:\n%s", want, text);
	/* an edited source: dirty */
	snprintf(cmd, sizeof cmd, "cd %s/repo && touch -d '-1 minute' build/gate_version.h && "
		 "echo '/* edited */' >>gates/core/version.c", tmpdir);
	cr_assert_eq(system(cmd), 0);
	snprintf(want, sizeof want, "#define GATE_VERSION \"%s-dirty\"\n", out);
	cr_assert_eq(run_into(build_header, text, sizeof text), 0, "%s", text);
	cr_expect(strstr(text, want), "after an edit, no '%s' in:\n%s", want, text);
	/* nothing changed: the header keeps its time */
	snprintf(cmd, sizeof cmd, "cd %s/repo && touch -d '-1 minute' build/gate_version.h && "
		 "before=$(stat -c %%Y build/gate_version.h) && python3 configure.py "
		 "--write-version build/gate_version.h && test \"$(stat -c %%Y "
		 "build/gate_version.h)\" = \"$before\"", tmpdir);
	cr_expect_eq(system(cmd), 0, "an unchanged version rewrote the header");
}
