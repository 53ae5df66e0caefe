#!/usr/bin/env python3
"""Writes build.ninja for allocgate.

Standard library only. Finds the C compiler (CC, CFLAGS, LDFLAGS are
honoured), the target OS, and the dependencies through pkg-config:
jansson (required: baselines and results are JSON), Criterion (tests),
libbpf (optional, Linux counters through BPF). The generated build.ninja
re-runs this script with the same arguments when configure.py changes,
when the package database changes (Debian/Ubuntu: /var/lib/dpkg/status),
or when a directory where an optional dependency was looked for changes
(probed_paths: the compiler's include directories, pkg-config's search
path), since what was found may have changed with it.

A Windows cross build (--host x86_64-w64-mingw32) takes jansson from
--with-jansson PREFIX, or from BUILDDIR/prefix where ci/mingw-jansson.sh
BUILDDIR puts it, or else from TRIPLE-pkg-config; without one it builds
the kernels and the probe only.

Sources are chosen by file name, not by #ifdef: a file named X_linux.c is
built only for Linux, X_windows.c only for Windows, X_darwin.c only for
macOS, X_posix.c for Linux and macOS.

When clang links a libFuzzer target with ASan and UBSan (FUZZ_CC, else
clang; Debian: clang libclang-rt-dev), the fuzz targets tests/fuzz/fuzz_*.c
are built into BUILDDIR/fuzz/ (`ninja fuzz`, part of `ninja all`) against
a second compile of the gate's own source list; otherwise one line says why
there are none.

main() reads as the order of the work: probe the toolchain, find each
dependency, then write each group of edges.
"""

import argparse
import glob
import os
import re
import shlex
import shutil
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.abspath(__file__))
# Installing or removing a package rewrites these: a build.ninja written
# before then may have turned a feature off (tests without Criterion: ci/test.sh
# installs it after ./gate configured) or may name what is gone. Colon
# separated; GATE_PACKAGE_DB replaces the list (the tests use a file of theirs).
PACKAGE_DATABASES = "/var/lib/dpkg/status"
OS_SUFFIXES = ("linux", "windows", "darwin", "posix")
# The forced include of a counted build (docs/counters.md): also installed
# as <allocgate/alloc_count.h>, the Cflags of allocgate-counted.pc.
COUNTED_HEADER = "perf/allocgate/alloc_count.h"
# What a user's build system takes from an installed allocgate besides the
# .pc files (docs/install.md): the CMake package (allocgate_add_kernel) and
# the Make fragment (allocgate_kernel), installed as they are.
CMAKE_CONFIG = "integrate/allocgateConfig.cmake"
MAKE_FRAGMENT = "integrate/allocgate.mk"
# The folders of perf/ that make the probe, build/liballocgate.a (the kernel
# API is perf/allocgate/; perf/interpose/ is liballocgate-interpose.so and
# perf/bpf/ is gate-bpf, each built on its own: docs/architecture.md).
PROBE_FOLDERS = ("probe", "counters", "counting")


def counted_flag(platform):
    """The compiler flag that force-includes COUNTED_HEADER."""
    return ("/FI" if platform.is_msvc() else "-include ") + COUNTED_HEADER


class Platform:
    """The OS the build targets (the host's unless --host says otherwise),
    and whether the compiler CC speaks MSVC's command line (cl, clang-cl),
    which targets Windows whatever the build machine."""

    def __init__(self, host, cc=""):
        base = os.path.basename(shlex.split(cc)[0]).lower() if cc.strip() else ""
        base = base[:-4] if base.endswith(".exe") else base
        self.msvc = base == "cl" or base.startswith("clang-cl")
        if self.msvc:
            self.name = "windows"
        elif host:
            self.name = "windows" if "mingw" in host or "windows" in host else host
        elif sys.platform.startswith("linux"):
            self.name = "linux"
        elif sys.platform == "darwin":
            self.name = "darwin"
        elif sys.platform in ("win32", "cygwin", "msys"):
            self.name = "windows"
        else:
            self.name = "posix"

    def is_windows(self):
        return self.name == "windows"

    def is_msvc(self):
        return self.msvc

    def obj(self, stem):
        return stem + (".obj" if self.msvc else ".o")

    def builds(self, suffix):
        """Whether a source with OS suffix SUFFIX belongs to this target."""
        if suffix == "posix":
            return self.name in ("linux", "darwin", "posix")
        return suffix == self.name

    def exe(self, path):
        return path + ".exe" if self.is_windows() else path


class Writer:
    """A small ninja file writer."""

    def __init__(self):
        self.lines = []

    @staticmethod
    def escape(path):
        return path.replace("$", "$$").replace(" ", "$ ").replace(":", "$:")

    def comment(self, text):
        self.lines.append("# " + text)

    def variable(self, key, value, indent=0):
        self.lines.append("  " * indent + "%s = %s" % (key, value))

    def rule(self, name, command, **kv):
        self.lines.append("rule " + name)
        self.variable("command", command, 1)
        for key, value in kv.items():
            self.variable(key, value, 1)

    def build(self, outputs, rule, inputs=(), implicit=(), order_only=(), variables=None):
        outputs = [outputs] if isinstance(outputs, str) else list(outputs)
        inputs = [inputs] if isinstance(inputs, str) else list(inputs)
        text = "build %s: %s" % (" ".join(map(self.escape, outputs)), rule)
        if inputs:
            text += " " + " ".join(map(self.escape, inputs))
        if implicit:
            text += " | " + " ".join(map(self.escape, implicit))
        if order_only:
            text += " || " + " ".join(map(self.escape, order_only))
        self.lines.append(text)
        for key, value in (variables or {}).items():
            self.variable(key, value, 1)
        return outputs

    def default(self, paths):
        self.lines.append("default " + " ".join(map(self.escape, paths)))

    def text(self):
        return "\n".join(self.lines) + "\n"


def run(cmd, env=None):
    """Output of CMD (a list), or None when it fails or does not exist."""
    try:
        out = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                             check=True, universal_newlines=True, env=env)
        return out.stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return None


def describe():
    """The version of this checkout: `git describe --always --dirty --tags`,
    "unknown" outside git."""
    return run(["git", "-C", ROOT, "describe", "--always", "--dirty", "--tags"]) or "unknown"


def write_version_header(path):
    """Writes PATH, the header that defines GATE_VERSION (gates/core/version.c),
    only when the version differs from the one it holds: the build's version
    edge (restat) then recompiles nothing when nothing changed."""
    version = describe().replace("\\", "\\\\").replace('"', '\\"')
    text = ("/* Generated by configure.py; do not edit, do not commit. */\n"
            "#define GATE_VERSION \"%s\"\n" % version)
    try:
        with open(path) as f:
            if f.read() == text:
                return
    except OSError:
        pass
    os.makedirs(os.path.dirname(path) or ".", exist_ok=True)
    with open(path + ".tmp", "w") as f:
        f.write(text)
    os.replace(path + ".tmp", path)


def version_inputs(platform):
    """What, changed, can change describe(): HEAD and its reflog (a commit,
    a checkout, a pull, a reset) and the sources (a tree made dirty or clean
    again). Not the index, which `git status` rewrites."""
    git_dir = run(["git", "-C", ROOT, "rev-parse", "--absolute-git-dir"])
    found = [os.path.join(git_dir, name) for name in ("HEAD", "logs/HEAD")
             if git_dir and os.path.isfile(os.path.join(git_dir, name))]
    return found, ["configure.py"] + [f for pattern in ("gates/*/*.[ch]", "perf/*/*.[ch]",
                                                          "kernels/*.c")
                                      for f in sources(pattern, platform)]


def pkg(name, pkg_config, libdir=None):
    """(cflags, libs) of pkg-config package NAME, or None when missing.
    LIBDIR: look only there (PKG_CONFIG_LIBDIR), e.g. a cross prefix's
    lib/pkgconfig, so that the build machine's own packages never leak in."""
    env = None
    if libdir:
        env = dict(os.environ, PKG_CONFIG_LIBDIR=libdir, PKG_CONFIG_PATH="")
        env.pop("PKG_CONFIG_SYSROOT_DIR", None)
    if not pkg_config or run([pkg_config, "--exists", name], env) is None:
        return None
    return (run([pkg_config, "--cflags", name], env) or "",
            run([pkg_config, "--libs", name], env) or "")


def find_jansson(args, platform, pkg_config):
    """(cflags, libs) of jansson, or None, and the one line saying where it
    was looked for. --with-jansson PREFIX, else for a Windows cross build
    BUILDDIR/prefix when ci/mingw-jansson.sh filled it, else pkg-config
    (TRIPLE-pkg-config for a cross build)."""
    prefix = args.with_jansson
    own = os.path.join(ROOT, args.builddir, "prefix")
    if not prefix and platform.is_windows() and os.path.exists(
            os.path.join(own, "lib", "pkgconfig", "jansson.pc")):
        prefix = own
    if prefix:
        libdir = os.path.join(os.path.abspath(prefix), "lib", "pkgconfig")
        # the plain pkg-config reads a cross prefix's .pc as well as any
        found = pkg("jansson", pkg_config or shutil.which("pkg-config"), libdir)
        return found, "no jansson.pc in %s" % libdir
    if pkg_config:
        return pkg("jansson", pkg_config), "not in " + pkg_config
    return None, "no %s-pkg-config; ci/mingw-jansson.sh %s builds it" % (
        args.host or "cross", args.builddir)


def compiler_works(cc, flags, ldflags, code="int main(void){return 0;}\n", libs="",
                   msvc=False):
    """Whether CC compiles and links CODE with FLAGS."""
    import tempfile
    with tempfile.TemporaryDirectory() as tmp:
        src = os.path.join(tmp, "t.c")
        with open(src, "w") as f:
            f.write(code)
        out = os.path.join(tmp, "t")
        if msvc:  # cl: /Fe names the program, the linker's flags follow /link
            cmd = shlex.split(cc) + shlex.split(flags) + [src, "/Fe" + out, "/Fo" + out + ".obj"]
            cmd += ["/link"] + shlex.split(ldflags) + shlex.split(libs)
        else:
            cmd = shlex.split(cc) + shlex.split(flags) + [src, "-o", out]
            cmd += shlex.split(ldflags) + shlex.split(libs)
        return subprocess.run(cmd, stdout=subprocess.DEVNULL,
                              stderr=subprocess.DEVNULL).returncode == 0


def sources(pattern, platform, exclude=()):
    """Sources matching PATTERN that belong to PLATFORM, sorted."""
    out = []
    for path in sorted(glob.glob(os.path.join(ROOT, pattern))):
        rel = os.path.relpath(path, ROOT).replace(os.sep, "/")
        stem = os.path.splitext(os.path.basename(rel))[0]
        suffix = stem.rsplit("_", 1)[-1] if "_" in stem else ""
        if suffix in OS_SUFFIXES and not platform.builds(suffix):
            continue
        if rel in exclude:
            continue
        out.append(rel)
    return out


def detect_bpf(platform, pkg_config):
    """What the BPF backend needs (libbpf, clang -target bpf, bpftool, BTF):
    a dict, or (None, the one line saying what is missing)."""
    if platform.name != "linux":
        return None, None
    libbpf = pkg("libbpf", pkg_config)
    if libbpf is None:
        return None, "bpf: off (libbpf not found; apt-get install libbpf-dev)"
    clang = os.environ.get("BPF_CLANG") or shutil.which("clang")
    if not clang or not compiler_works(clang, "-target bpf -c", "",
                                       code="int f(void){return 0;}\n"):
        return None, "bpf: off (no clang that builds -target bpf; apt-get install clang)"
    bpftool = (os.environ.get("BPFTOOL") or shutil.which("bpftool") or
               next((p for p in ("/usr/sbin/bpftool", "/sbin/bpftool") if os.access(p, os.X_OK)),
                    None))
    if not bpftool:
        return None, "bpf: off (bpftool not found; apt-get install bpftool)"
    btf = "/sys/kernel/btf/vmlinux"
    if not os.path.exists(btf):
        return None, "bpf: off (the kernel has no BTF: %s missing)" % btf
    arch = {"x86_64": "x86", "aarch64": "arm64", "arm64": "arm64", "riscv64": "riscv",
            "ppc64le": "powerpc", "s390x": "s390"}.get(os.uname().machine, "x86")
    return {"cflags": libbpf[0], "libs": libbpf[1], "clang": clang, "bpftool": bpftool,
            "btf": btf, "arch": arch}, "bpf: on (%s, %s, BTF %s): build/gate-bpf" % (
                clang, bpftool, btf)


def write_bpf(w, bd, bpf):
    """Rules for build/gate-bpf: vmlinux.h from the running kernel's BTF,
    perf/bpf/bpf_alloc.bpf.c -> .bpf.o -> .skel.h, then the loader. All
    generated into the build directory, never committed."""
    w.variable("bpf_clang", bpf["clang"])
    w.variable("bpftool", bpf["bpftool"])
    w.variable("libbpf_cflags", bpf["cflags"])
    w.variable("libbpf_libs", bpf["libs"])
    w.rule("vmlinux_h", "$bpftool btf dump file $in format c > $out",
           description="BTF $out")
    w.rule("bpf_cc", "$bpf_clang -g -O2 -target bpf -D__TARGET_ARCH_%s -I%s/bpf -Iperf "
           "$libbpf_cflags -MD -MF $out.d -c $in -o $out" % (bpf["arch"], bd),
           depfile="$out.d", deps="gcc", description="BPF $out")
    w.rule("bpf_skel", "$bpftool gen skeleton $in name $name > $out.tmp && mv $out.tmp $out",
           description="SKEL $out")
    vmlinux = w.build("%s/bpf/vmlinux.h" % bd, "vmlinux_h", bpf["btf"])
    obj = w.build("%s/bpf/bpf_alloc.bpf.o" % bd, "bpf_cc", "perf/bpf/bpf_alloc.bpf.c",
                  implicit=vmlinux)
    skel = w.build("%s/bpf/bpf_alloc.skel.h" % bd, "bpf_skel", obj,
                   variables={"name": "bpf_alloc"})
    loader = w.build("%s/obj/perf/bpf/bpf_gate_linux.o" % bd, "cc", "perf/bpf/bpf_gate_linux.c",
                     implicit=skel, variables={"extra_cflags": "-I%s/bpf $libbpf_cflags" % bd})
    return w.build("%s/gate-bpf" % bd, "link", loader,
                   variables={"extra_libs": "$libbpf_libs"})


FUZZ_PROBE = ("#include <stddef.h>\n#include <stdint.h>\n"
              "int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);\n"
              "int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)\n"
              "{ (void)data; (void)size; return 0; }\n")
FUZZ_SANITIZERS = "-fsanitize=fuzzer,address,undefined"


def find_libfuzzer(platform):
    """The clang that links libFuzzer with ASan and UBSan (FUZZ_CC, else
    clang on PATH), or None, and the one line that says so. Probed by
    building a tiny fuzz target, so a clang without its runtime
    (Debian: libclang-rt-dev) counts as missing."""
    if platform.is_windows():
        return None, None
    clang = shutil.which(os.environ.get("FUZZ_CC") or "clang")
    if not clang or not compiler_works(clang, FUZZ_SANITIZERS, "", code=FUZZ_PROBE):
        return None, ("fuzz: off (no clang that links %s; apt-get install clang "
                      "libclang-rt-dev)" % FUZZ_SANITIZERS)
    return clang, "fuzz: on (%s): build/fuzz/fuzz_* (ci/fuzz.sh)" % clang


def write_fuzz(w, bd, clang, gate_srcs, version_header):
    """The fuzz targets, BD/fuzz/fuzz_X from tests/fuzz/fuzz_X.c: a second
    compile of the gate's own sources (GATE_SRCS, the list libgate.a is made
    of) with clang, libFuzzer's instrumentation, ASan and UBSan, into
    BD/fuzz/libgate.a. Returns the targets."""
    w.variable("fuzz_cc", clang)
    w.variable("fuzz_cflags", "-std=c11 -g -O1 -Wall -Wextra -D_GNU_SOURCE "
               "-fno-omit-frame-pointer -fsanitize=fuzzer-no-link,address,undefined "
               "-fno-sanitize-recover=undefined -Iperf -Igates")
    w.rule("fuzz_cc", "$fuzz_cc -MMD -MF $out.d $fuzz_cflags $extra_cflags -c $in -o $out",
           depfile="$out.d", deps="gcc", description="FUZZ CC $out")
    w.rule("fuzz_link", "$fuzz_cc %s -o $out $in $extra_libs $libs" % FUZZ_SANITIZERS,
           description="FUZZ LINK $out")
    objs = []
    for src in gate_srcs + ["gates/core/version.c"]:
        obj = "%s/fuzz/obj/%s.o" % (bd, os.path.splitext(src)[0])
        version = src == "gates/core/version.c"
        objs += w.build(obj, "fuzz_cc", src, implicit=[version_header] if version else [],
                        variables={"extra_cflags": "%s$jansson_cflags $gate_defines" % (
                            "-I%s " % bd if version else "")})
    fuzz_lib = w.build("%s/fuzz/libgate.a" % bd, "ar", objs)
    targets = []
    for src in sorted(glob.glob(os.path.join(ROOT, "tests/fuzz/fuzz_*.c"))):
        src = os.path.relpath(src, ROOT).replace(os.sep, "/")
        stem = os.path.splitext(os.path.basename(src))[0]
        obj = w.build("%s/fuzz/obj/%s.o" % (bd, stem), "fuzz_cc", src,
                      variables={"extra_cflags": "$jansson_cflags"})
        targets += w.build("%s/fuzz/%s" % (bd, stem), "fuzz_link", obj + fuzz_lib,
                           variables={"extra_libs": "$jansson_libs"})
    w.build("fuzz", "phony", targets)
    return targets


def msvc_libs(text):
    """pkg-config's -L/-l flags as MSVC's linker takes them (after /link)."""
    out = []
    for word in shlex.split(text):
        if word.startswith("-L"):
            out.append("/LIBPATH:" + word[2:])
        elif word.startswith("-l"):
            out.append(word[2:] + ".lib")
        elif word != "-pthread":
            out.append(word)
    return " ".join(shlex.quote(w) for w in out)


def toolchain_flags(args, platform):
    """(cflags, ldflags, libs) for the compiler family and target, before
    CFLAGS and LDFLAGS from the environment are appended."""
    return msvc_flags(args) if platform.is_msvc() else gnu_flags(args, platform)


def msvc_flags(args):
    """toolchain_flags for cl and clang-cl."""
    # cl and clang-cl: C11, warnings at /W4, PDB debug info; the CRT's
    # "use the _s functions" deprecations are not about this code.
    cflags = "/nologo /std:c11 /W4 /Zi /utf-8 /D_CRT_SECURE_NO_WARNINGS"
    cflags += " /Od" if args.debug else " /O2 /DNDEBUG"
    if args.warnings_as_errors:
        cflags += " /WX"
    ldflags = "/DEBUG"
    if args.sanitize:
        if args.sanitize != "address":
            sys.exit("configure.py: --sanitize %s: MSVC has address only" % args.sanitize)
        cflags += " /fsanitize=address"
    # No pthreads in the Windows SDK: the threaded kernels and
    # perf/probe/probe_threads.c need a pthreads library (e.g. vcpkg's
    # pthreads) through CFLAGS/LDFLAGS.
    return cflags, ldflags, ""


def gnu_flags(args, platform):
    """toolchain_flags for GCC and Clang (mingw-w64's GCC too)."""
    cflags = "-std=c11 -g -Wall -Wextra -Wshadow -Wstrict-prototypes -Wmissing-prototypes"
    cflags += " -O0" if args.debug else " -O2 -DNDEBUG"
    if platform.name == "linux":
        cflags += " -D_GNU_SOURCE"
    if platform.is_windows():
        # mingw-w64's own printf family, C99 formats included (%zu, %lld,
        # %Lg): msvcrt's printf does not know them.
        cflags += " -D__USE_MINGW_ANSI_STDIO=1"
    if args.warnings_as_errors:
        cflags += " -Werror"
    # The same sources give the same executables in any checkout: the
    # baseline's drift history follows a kernel executable by its bytes
    # (gates/decide/history.h), and debug info and __FILE__ would otherwise hold
    # the checkout's absolute path.
    root = os.path.dirname(os.path.abspath(__file__))
    cflags += " " + shlex.quote("-ffile-prefix-map=%s=." % root).replace("$", "$$")
    ldflags = ""
    # mingw-w64: winpthreads for the threaded kernels, linked in statically
    # so that the .exe runs (under wine too) without libwinpthread-1.dll
    libs = "-static -pthread" if platform.is_windows() else "-pthread"
    if platform.is_windows():
        # GNU ld stamps PE files with the link time: no two builds would
        # have the same bytes (the drift history's digest, above)
        ldflags += " -Wl,--no-insert-timestamp"
    if platform.name == "linux":
        # -ldl: the probe finds the allocation interposer with dlsym
        # (in libc itself from glibc 2.34; a separate library before)
        libs += " -lm -ldl"
    if args.sanitize:
        san = "-fsanitize=%s -fno-omit-frame-pointer" % args.sanitize
        cflags += " " + san
        ldflags += " " + san
    return cflags, ldflags, libs


def quoted_define(platform, name, value):
    """-DNAME="VALUE" as a C string literal, quoted for the shell that runs
    ninja's commands (sh), or for cl's own command-line parsing (Windows
    runs the command without a shell)."""
    value = value.replace('"', "").replace("'", "").replace("\\", "/")
    if platform.is_msvc():
        return '"/D%s=\\"%s\\""' % (name, value)
    return "-D%s='\"%s\"'" % (name, value)


def package_databases():
    """The package databases that exist, for build.ninja's own inputs. One
    dated in the future (a clock set back since the last install) is left
    out: ninja would find the file it just wrote older than it, again and
    again."""
    now = time.time()
    found = []
    for path in os.environ.get("GATE_PACKAGE_DB", PACKAGE_DATABASES).split(":"):
        try:
            if path and os.path.getmtime(path) <= now:
                found.append(path)
        except OSError:
            pass
    return found


def include_dirs(cc, cflags, platform):
    """The directories CC searches for #include <...> with CFLAGS, from
    `cc -E -v` (GCC and Clang print the list between "search starts here"
    and "End of search list"); none for MSVC."""
    if platform.is_msvc():
        return []
    try:
        res = subprocess.run(shlex.split(cc) + shlex.split(cflags) + ["-E", "-v", "-x", "c",
                             os.devnull], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                             universal_newlines=True)
    except OSError:
        return []
    dirs, inside = [], False
    for line in res.stderr.splitlines():
        if line.startswith("#include <...> search starts here"):
            inside = True
        elif line.startswith("End of search list"):
            break
        elif inside and line.startswith(" "):
            dirs.append(line.strip().split(" (")[0])   # " /x (framework directory)"
    return dirs


def nearest_existing(path):
    """PATH, or its nearest ancestor that exists."""
    path = os.path.abspath(path)
    while not os.path.exists(path) and os.path.dirname(path) != path:
        path = os.path.dirname(path)
    return path


def probed_paths(cc, cflags, platform, pkg_config, bpf_tools_missing):
    """Where an optional dependency found missing would appear, and where
    a found one lives: each compiler include directory's valgrind/ (or the
    directory itself while that is missing: adding valgrind/ to it changes
    its time), pkg-config's search path (jansson, Criterion, libbpf), and
    PATH's directories while libbpf is there but clang or bpftool is not.
    Inputs of the ninja file, so that an install without a package database
    (a source install, Homebrew, a copied header) configures again. Sorted;
    one dated in the future left out (package_databases says why)."""
    paths = set()
    for d in include_dirs(cc, cflags, platform):
        paths.add(nearest_existing(os.path.join(d, "valgrind")))
    if pkg_config:
        search = []
        libdir = os.environ.get("PKG_CONFIG_LIBDIR")
        search += (libdir if libdir is not None else
                   (run([pkg_config, "--variable", "pc_path", "pkg-config"]) or "")).split(":")
        search += os.environ.get("PKG_CONFIG_PATH", "").split(":")
        paths.update(nearest_existing(d) for d in search if d)
    if bpf_tools_missing:
        paths.update(nearest_existing(d) for d in os.environ.get("PATH", "").split(os.pathsep)
                     if os.path.isabs(d))
    now = time.time()
    return sorted(p for p in paths if os.path.getmtime(p) <= now and p != "/")


PC_DESCRIPTIONS = {
    "allocgate": "allocgate's kernel probe, <allocgate/probe.h>: variants, parameter "
                 "sets, regions and declared expectations of a kernel",
    "allocgate-counted": "allocgate's compile-time allocation counting: add these Cflags "
                         "to the kernel's counted build and to every source of yours whose "
                         "allocations should be counted",
}


def pkgconfig_files(prefix, includedir, libs, version, makefile):
    """The text of allocgate.pc and allocgate-counted.pc, as a dict by name:
    INCLUDEDIR holds allocgate/probe.h, LIBS links the probe, MAKEFILE is
    the Make fragment (`pkg-config --variable=makefile allocgate`)."""
    head = "prefix=%s\nincludedir=%s\n\n" % (prefix, includedir)
    return {
        "allocgate": "%smakefile=%s\n\n" % (head[:-1], makefile) +
        "Name: allocgate\nDescription: %s\nVersion: %s\n"
        "Cflags: -I${includedir}\nLibs: %s -pthread%s\n" % (
            PC_DESCRIPTIONS["allocgate"], version, libs,
            " -lm -ldl" if sys.platform.startswith("linux") else ""),
        "allocgate-counted": head + "Name: allocgate-counted\nDescription: %s\n"
        "Version: %s\nRequires: allocgate\n"
        "Cflags: -include allocgate/alloc_count.h\n" % (
            PC_DESCRIPTIONS["allocgate-counted"], version),
    }


def write_pkgconfig(bd, prefix, version):
    """BD/pkgconfig/*.pc for this checkout (PKG_CONFIG_PATH=BD/pkgconfig: the
    headers from perf/, the probe from BD) and BD/pkgconfig-install/*.pc for
    PREFIX, which `ninja install` copies. Returns the installed ones' paths."""
    out = []
    for sub, texts in (
            ("pkgconfig", pkgconfig_files(ROOT, "${prefix}/perf",
                                          "-L%s -lallocgate" % os.path.join(ROOT, bd), version,
                                          "${prefix}/" + MAKE_FRAGMENT)),
            # relocatable: the prefix is where the .pc file is (a DESTDIR
            # staging tree, a copied prefix), as pkg-config's pcfiledir says
            ("pkgconfig-install", pkgconfig_files(
                "${pcfiledir}/../..", "${prefix}/include", "-L${prefix}/lib -lallocgate",
                version, "${prefix}/share/allocgate/allocgate.mk"))):
        d = os.path.join(ROOT, bd, sub)
        os.makedirs(d, exist_ok=True)
        for name, text in texts.items():
            path = os.path.join(d, name + ".pc")
            with open(path + ".tmp", "w") as f:
                f.write(text)
            os.replace(path + ".tmp", path)
            if sub == "pkgconfig-install":
                out.append(os.path.relpath(path, ROOT))
    return out


def cmake_version_file(version):
    """The text of allocgateConfigVersion.cmake for VERSION (`git describe`):
    the numeric part of a tag (v1.2-3-gabc: 1.2), 0 when untagged."""
    m = re.match(r"v?([0-9]+(?:\.[0-9]+)*)(?:$|[-+])", version)
    return ("# allocgateConfigVersion.cmake: written by configure.py for %s. A\n"
            "# request for version X is met when this one is X or newer; an untagged\n"
            "# build is version 0.\n"
            "set(PACKAGE_VERSION \"%s\")\n"
            "set(PACKAGE_VERSION_COMPATIBLE TRUE)\n"
            "if(PACKAGE_FIND_VERSION AND PACKAGE_VERSION VERSION_LESS PACKAGE_FIND_VERSION)\n"
            "\tset(PACKAGE_VERSION_COMPATIBLE FALSE)\n"
            "elseif(PACKAGE_FIND_VERSION AND PACKAGE_VERSION VERSION_EQUAL PACKAGE_FIND_VERSION)\n"
            "\tset(PACKAGE_VERSION_EXACT TRUE)\n"
            "endif()\n" % (version, m.group(1) if m else "0"))


def write_build_packages(bd, version):
    """The files `ninja install` copies for the CMake package and the Make
    fragment, as (path, folder under the prefix): the two from integrate/
    and BD/cmake-install/allocgateConfigVersion.cmake, written here."""
    d = os.path.join(ROOT, bd, "cmake-install")
    os.makedirs(d, exist_ok=True)
    version_file = os.path.join(d, "allocgateConfigVersion.cmake")
    write_file(version_file, cmake_version_file(version))
    return [(CMAKE_CONFIG, "lib/cmake/allocgate"),
            (os.path.relpath(version_file, ROOT), "lib/cmake/allocgate"),
            (MAKE_FRAGMENT, "share/allocgate")]


def write_install(w, bd, prefix, gate, bpf, libs, pcs, packages):
    """`ninja install`: the gate, gate-bpf where built, the kernel API headers,
    LIBS (the probe as liballocgate.a, the interposer where built), the
    pkg-config files and PACKAGES ((path, folder under the prefix): the
    CMake package, the Make fragment), under $DESTDIR/PREFIX
    (docs/install.md)."""
    q = shlex.quote
    dest = '"$${DESTDIR}"%s' % q(prefix)
    folders = sorted({folder for _, folder in packages})
    steps = ["set -e",
             "mkdir -p %s/bin %s/include/allocgate %s/lib/pkgconfig" % (dest, dest, dest)]
    steps += ["mkdir -p %s/%s" % (dest, folder) for folder in folders]
    for exe in gate + bpf:
        steps.append("install -m 755 %s %s/bin/" % (q(exe), dest))
    for h in ("probe.h", "alloc_count.h"):
        steps.append("install -m 644 perf/allocgate/%s %s/include/allocgate/" % (h, dest))
    for lib in libs:
        steps.append("install -m 644 %s %s/lib/" % (q(lib), dest))
    for pc in pcs:
        steps.append("install -m 644 %s %s/lib/pkgconfig/" % (q(pc), dest))
    for path, folder in packages:
        steps.append("install -m 644 %s %s/%s/" % (q(path), dest, folder))
    steps.append("echo installed into %s" % dest)
    w.rule("install", "sh -c %s" % q("; ".join(steps)).replace("$$", "$$"),
           description="INSTALL %s" % prefix, pool="console")
    w.build("install", "install", implicit=gate + bpf + libs + pcs + [p for p, _ in packages])


def parse_args(argv):
    p = argparse.ArgumentParser(
        description="Write build.ninja for allocgate.",
        epilog="Environment: CC, AR, CFLAGS, LDFLAGS, PKG_CONFIG. CC=cl or CC=clang-cl "
        "writes MSVC command lines (/showIncludes, /Fo, /Fe, lib.exe or llvm-lib) for "
        "Windows; the threaded kernels then need a pthreads library in CFLAGS/LDFLAGS.")
    p.add_argument("--debug", action="store_true", help="-O0, assertions on")
    p.add_argument("--sanitize", metavar="LIST",
                   help="compiler sanitizers, e.g. address,undefined or thread")
    p.add_argument("--warnings-as-errors", action="store_true", help="-Werror")
    p.add_argument("--host", metavar="TRIPLE",
                   help="cross build, e.g. x86_64-w64-mingw32 (compiler TRIPLE-gcc)")
    p.add_argument("--builddir", default="build", help="output directory (default build)")
    p.add_argument("--prefix", default="/usr/local",
                   help="where `ninja install` puts bin/gate, include/allocgate/, "
                   "lib/liballocgate.a and lib/pkgconfig/ (default /usr/local; DESTDIR "
                   "in the environment of ninja is prepended)")
    p.add_argument("--with-jansson", metavar="PREFIX",
                   help="jansson from PREFIX/lib/pkgconfig/jansson.pc only (a cross build's "
                   "own, e.g. what ci/mingw-jansson.sh BUILDDIR makes in BUILDDIR/prefix, "
                   "which --host x86_64-w64-mingw32 also finds without this flag)")
    p.add_argument("--ninja-file", default="build.ninja",
                   help="where to write the ninja file (default build.ninja)")
    p.add_argument("--write-version", metavar="PATH",
                   help="only write the version header PATH if the version changed (the "
                   "build runs this after a commit, a checkout or an edit)")
    return p.parse_args(argv)


class Toolchain:
    """The compiler, archiver and pkg-config for the target, and the flags
    every C compile and link gets (CFLAGS and LDFLAGS from the environment
    appended)."""

    def __init__(self, args):
        self.cc = os.environ.get("CC") or ("%s-gcc" % args.host if args.host else
                                           ("cc" if shutil.which("cc") else "gcc"))
        self.platform = Platform(args.host, self.cc)
        default_ar = "%s-ar" % args.host if args.host else "ar"
        if self.platform.is_msvc():
            default_ar = "llvm-lib" if "clang-cl" in self.cc else "lib"
        self.ar = os.environ.get("AR") or default_ar
        pkg_config = os.environ.get("PKG_CONFIG") or (
            "%s-pkg-config" % args.host if args.host else "pkg-config")
        self.pkg_config = pkg_config if shutil.which(pkg_config) else None
        cflags, ldflags, self.libs = toolchain_flags(args, self.platform)
        self.cflags = (cflags + " " + os.environ.get("CFLAGS", "")).strip()
        self.ldflags = (ldflags + " " + os.environ.get("LDFLAGS", "")).strip()


def probe_toolchain(args):
    """The Toolchain, once its compiler builds a trivial C11 program; exits
    with the reason otherwise."""
    tc = Toolchain(args)
    if not shutil.which(shlex.split(tc.cc)[0]):
        sys.exit("configure.py: no C compiler: %s not found (apt-get install gcc, or set CC)"
                 % tc.cc)
    if not compiler_works(tc.cc, tc.cflags, tc.ldflags, libs=tc.libs,
                          msvc=tc.platform.is_msvc()):
        sys.exit("configure.py: %s cannot build a trivial C11 program with: %s %s"
                 % (tc.cc, tc.cflags, tc.ldflags))
    return tc


def require_jansson(args, tc):
    """(cflags, libs) of jansson, or None with one note for a Windows build
    (kernels and probe only); exits when a native build has none."""
    jansson, where = find_jansson(args, tc.platform, tc.pkg_config)
    if jansson is None and args.with_jansson:
        sys.exit("configure.py: --with-jansson %s: %s" % (args.with_jansson, where))
    if jansson is None and tc.platform.is_windows():
        return None, "gate: skipped (no jansson for %s: %s); kernels and probe only" % (
            args.host or "windows", where)
    if jansson is None:
        sys.exit("configure.py: jansson not found through pkg-config; it reads and writes "
                 "baselines and results.\n  Debian/Ubuntu: apt-get install libjansson-dev "
                 "pkg-config\n  macOS: brew install jansson pkg-config")
    return jansson, None


def find_criterion(tc):
    """(cflags, libs) of Criterion, or None, and the note when the tests
    are off."""
    if tc.platform.is_windows():
        # the suite forks, pipes and runs POSIX tools: it runs on the build
        # machine, and runs a Windows build under wine (test_windows_*.c)
        return None, ("tests: off for Windows (tests/test_windows_*.c run this build under "
                      "wine from a Linux build's suite)")
    criterion = pkg("criterion", tc.pkg_config)
    if criterion is None:
        return None, "tests: off (Criterion not found; apt-get install libcriterion-dev)"
    return criterion, None


def find_callgrind(tc):
    """Whether the probe can switch callgrind's collection around a region
    (<valgrind/callgrind.h>), and the note when the cost pass is off or
    lacks valgrind."""
    if tc.platform.is_windows():
        return False, None  # no valgrind for Windows
    if not compiler_works(tc.cc, tc.cflags + " -c", "",
                          code="#include <valgrind/callgrind.h>\n"
                          "int f(void){CALLGRIND_TOGGLE_COLLECT; return 0;}\n"):
        return False, "callgrind: off (no <valgrind/callgrind.h>; apt-get install valgrind)"
    if not shutil.which("valgrind"):
        return True, ("callgrind: probe ready, but valgrind is not installed "
                      "(--backend callgrind needs it)")
    return True, None


class Dependencies:
    """What was found: jansson, criterion, bpf (a dict), fuzz_cc (the clang
    of the fuzz targets) or None each; probed, the paths whose change
    configures again; notes, one line each for what is off (fuzz_note the
    fuzz targets' line)."""


def find_dependencies(args, tc):
    """The Dependencies of this build; adds -DGATE_HAVE_CALLGRIND to
    tc.cflags when the probe can drive callgrind."""
    deps = Dependencies()
    deps.jansson, jansson_note = require_jansson(args, tc)
    deps.criterion, criterion_note = find_criterion(tc)
    deps.bpf, bpf_note = detect_bpf(tc.platform, tc.pkg_config)
    bpf_tools_missing = bool(bpf_note and "libbpf not found" not in bpf_note and not deps.bpf)
    deps.probed = probed_paths(tc.cc, tc.cflags, tc.platform, tc.pkg_config, bpf_tools_missing)
    callgrind, callgrind_note = find_callgrind(tc)
    if callgrind:
        tc.cflags += " -DGATE_HAVE_CALLGRIND"
    deps.fuzz_cc, deps.fuzz_note = (find_libfuzzer(tc.platform) if deps.jansson
                                    else (None, None))
    deps.notes = [n for n in (jansson_note, criterion_note, bpf_note, callgrind_note,
                              deps.fuzz_note) if n]
    if tc.platform.is_msvc():
        deps.jansson = deps.jansson and (deps.jansson[0], msvc_libs(deps.jansson[1]))
        deps.criterion = deps.criterion and (deps.criterion[0], msvc_libs(deps.criterion[1]))
    return deps


def write_variables(w, args, argv, tc, deps):
    """The variables every rule reads: compiler, flags, libraries."""
    cc_version = (run(shlex.split(tc.cc) + ["--version"]) or tc.cc).splitlines()[0]
    defines = " ".join(quoted_define(tc.platform, name, value) for name, value in (
        ("GATE_COMPILER", cc_version), ("GATE_CFLAGS", tc.cflags)))
    w.comment("Generated by configure.py; do not edit, do not commit.")
    w.variable("ninja_required_version", "1.3")
    w.variable("builddir", args.builddir)
    w.variable("configure_args", " ".join(shlex.quote(a) for a in argv))
    w.variable("cc", tc.cc)
    w.variable("ar", tc.ar)
    w.variable("cflags", "%s %s" % (tc.cflags, "/Iperf /Igates" if tc.platform.is_msvc()
                                     else "-Iperf -Igates"))
    w.variable("ldflags", tc.ldflags)
    w.variable("libs", tc.libs)
    w.variable("gate_defines", defines)
    w.variable("jansson_cflags", deps.jansson[0] if deps.jansson else "")
    w.variable("jansson_libs", deps.jansson[1] if deps.jansson else "")
    if deps.criterion:
        w.variable("criterion_cflags", deps.criterion[0])
        w.variable("criterion_libs", deps.criterion[1])


def write_rules(w, platform):
    """The compile, archive and link rules of the compiler family."""
    if platform.is_msvc():
        # headers from /showIncludes (deps = msvc); lib.exe replaces $out
        # itself; the linker's own flags and libraries follow /link
        w.rule("cc", "$cc /showIncludes $cflags $extra_cflags /c $in /Fo$out",
               deps="msvc", description="CC $out")
        w.rule("ar", "$ar /nologo /out:$out $in", description="LIB $out")
        w.rule("link", "$cc /nologo $in /Fe$out /link $ldflags $extra_libs $libs",
               description="LINK $out")
    else:
        w.rule("cc", "$cc -MMD -MF $out.d $cflags $extra_cflags -c $in -o $out",
               depfile="$out.d", deps="gcc", description="CC $out")
        w.rule("ar", "rm -f $out && $ar crs $out $in", description="AR $out")
        w.rule("link", "$cc $ldflags -o $out $in $extra_libs $libs", description="LINK $out")


def write_configure(w, args, probed):
    """build.ninja's own edge: configure again, with the same arguments,
    when configure.py, a package database or a PROBED path changes."""
    w.rule("configure", "%s configure.py $configure_args" % shlex.quote(sys.executable),
           generator="1", description="CONFIGURE")
    w.build(args.ninja_file, "configure", implicit=["configure.py"] + package_databases() +
            probed)
    # a probed directory that disappears configures again instead of
    # stopping ninja ("missing and no known rule to make it")
    for path in probed:
        w.build(path, "phony")


class Edges:
    """The ninja writer W with the target PLATFORM and build directory BD."""

    def __init__(self, w, platform, bd):
        self.w, self.platform, self.bd = w, platform, bd

    def objects(self, srcs, extra=""):
        """An object file under BD/obj/ for each of SRCS, compiled with EXTRA."""
        objs = []
        for src in srcs:
            obj = self.platform.obj("%s/obj/%s" % (self.bd, os.path.splitext(src)[0]))
            self.w.build(obj, "cc", src, variables={"extra_cflags": extra} if extra else None)
            objs.append(obj)
        return objs

    def library(self, name, objs):
        """BD/libNAME.a (libNAME.lib for MSVC: not NAME.lib, the name of
        NAME.exe's import library) of OBJS."""
        lib = "%s/lib%s.lib" if self.platform.is_msvc() else "%s/lib%s.a"
        return self.w.build(lib % (self.bd, name), "ar", objs)[0]


def gate_sources(platform):
    """The sources of libgate.a: gates/ but main.c and version.c (generated
    version header); also what the fuzz targets are built from."""
    return sources("gates/*/*.c", platform, exclude=("gates/cli/main.c", "gates/core/version.c"))


def write_version(e):
    """The version header, written again when a commit, a checkout or an
    edit may have changed the version (restat: rewritten only if it did),
    and version.c's object. Returns (header, object)."""
    header = "%s/gate_version.h" % e.bd
    git_files, version_sources = version_inputs(e.platform)
    e.w.rule("version", "%s configure.py --write-version $out" % shlex.quote(sys.executable),
             restat="1", description="VERSION $out")
    e.w.build(header, "version", implicit=git_files + version_sources)
    for path in git_files:
        e.w.build(path, "phony")
    write_version_header(os.path.join(ROOT, header))
    obj = e.platform.obj("%s/obj/gates/core/version" % e.bd)
    e.w.build(obj, "cc", "gates/core/version.c", implicit=[header],
              variables={"extra_cflags": ("/I%s" if e.platform.is_msvc() else "-I%s") % e.bd})
    return header, obj


def write_gate(e, version_obj):
    """libgate.a and the gate. Returns (the library, [the gate])."""
    extra = "$jansson_cflags $gate_defines"
    gate_lib = e.library("gate", e.objects(gate_sources(e.platform), extra) + [version_obj])
    gate = e.w.build(e.platform.exe("%s/gate" % e.bd), "link",
                     e.objects(["gates/cli/main.c"], extra) + [gate_lib],
                     variables={"extra_libs": "$jansson_libs"})
    return gate_lib, gate


def write_interposer(e):
    """The allocation interposer (perf/interpose/), preloaded into the
    counted pass only: built without sanitizers (it goes into plain kernel
    processes) and position-independent; the counting is shared, the
    allocator replacement is the OS's (RTLD_NEXT on Linux, dyld's
    __interpose section on macOS). Returns its path in a list, or []."""
    name = e.platform.name
    if name == "linux":
        e.w.rule("interpose", "$cc -shared -fPIC -std=c11 -O2 -g -Wall -Wextra -Iperf "
                 "-D_GNU_SOURCE -o $out $in -ldl", description="SO $out")
        lib = "%s/liballocgate-interpose.so" % e.bd
    elif name == "darwin":
        e.w.rule("interpose", "$cc -dynamiclib -std=c11 -O2 -g -Wall -Wextra -Iperf "
                 "-o $out $in", description="DYLIB $out")
        lib = "%s/liballocgate-interpose.dylib" % e.bd
    else:
        return []
    return e.w.build(lib, "interpose", ["perf/interpose/interpose_%s.c" % name,
                                        "perf/interpose/interpose_count.c"],
                     implicit=["perf/interpose/interpose.h", "perf/interpose/interpose_count.h"])


def write_counted(e, src, obj, exe, probe_lib):
    """The counted twin of SRC (docs/counters.md): the same source with
    the forced include that routes malloc & co. through counters."""
    e.w.build(obj, "cc", src, implicit=[COUNTED_HEADER],
              variables={"extra_cflags": counted_flag(e.platform)})
    return e.w.build(e.platform.exe(exe), "link", [obj, probe_lib])


def write_kernels(e, pattern, outdir, probe_lib):
    """Each kernel of PATTERN as BD/OUTDIR/NAME and BD/OUTDIR-counted/NAME."""
    outs = []
    for src in sources(pattern, e.platform):
        name = os.path.splitext(os.path.basename(src))[0]
        outs += e.w.build(e.platform.exe("%s/%s/%s" % (e.bd, outdir, name)), "link",
                          e.objects([src]) + [probe_lib])
        obj = e.platform.obj("%s/obj-counted/%s" % (e.bd, os.path.splitext(src)[0]))
        outs += write_counted(e, src, obj, "%s/%s-counted/%s" % (e.bd, outdir, name),
                              probe_lib)
    return outs


def write_bench(e, probe_lib):
    """Benchmarks of the gate's own machinery: `ninja bench`, run by hand."""
    bench = []
    for src in sources("tests/bench/*.c", e.platform):
        stem = os.path.splitext(os.path.basename(src))[0]
        bench += e.w.build(e.platform.exe("%s/bench/%s" % (e.bd, stem)), "link",
                           e.objects([src]) + [probe_lib])
        if stem == "probe_region_bench":   # its counted build too
            bench += write_counted(e, src, "%s/obj/bench-counted/%s.o" % (e.bd, stem),
                                   "%s/bench/%s-counted" % (e.bd, stem), probe_lib)
    e.w.build("bench", "phony", bench)


def write_tests(e, libs, implicit):
    """One Criterion binary for every tests/test_*.c (one summary line),
    linked with LIBS; IMPLICIT (the gate, the test kernels) built first."""
    test_objs = []
    for src in sources("tests/test_*.c", e.platform):
        test_objs += e.objects([src], "$criterion_cflags $jansson_cflags")
    return e.w.build(e.platform.exe("%s/tests/unit" % e.bd), "link", test_objs + libs,
                     implicit=implicit,
                     variables={"extra_libs": "$criterion_libs $jansson_libs"})


def write_preload(e):
    """tests/preload/*.c: LD_PRELOAD libraries the suite injects into the
    kernels (a deadlocking free, tests/test_e2e_budget.c)."""
    e.w.rule("solink", "$cc -shared -fPIC $cflags -o $out $in", description="SO $out")
    outs = []
    for src in sources("tests/preload/*.c", e.platform):
        stem = os.path.splitext(os.path.basename(src))[0]
        outs += e.w.build("%s/tests/preload/lib%s.so" % (e.bd, stem), "solink", src)
    return outs


def write_file(path, text):
    """Writes TEXT to PATH through a temporary file (a reader never sees half)."""
    with open(path + ".tmp", "w") as f:
        f.write(text)
    os.replace(path + ".tmp", path)


def main(argv):
    args = parse_args(argv)
    if args.write_version:
        write_version_header(args.write_version)
        return 0
    tc = probe_toolchain(args)
    deps = find_dependencies(args, tc)
    platform, bd = tc.platform, args.builddir
    version = describe()

    w = Writer()
    write_variables(w, args, argv, tc, deps)
    write_rules(w, platform)
    write_configure(w, args, deps.probed)
    e = Edges(w, platform, bd)
    # the probe as liballocgate.a, the name it is installed under too
    probe_lib = e.library("allocgate", e.objects(
        [src for folder in PROBE_FOLDERS for src in sources("perf/%s/*.c" % folder, platform)]))
    version_header, version_obj = write_version(e)
    gate_lib, gate = write_gate(e, version_obj) if deps.jansson else (None, [])
    interposer = write_interposer(e)
    bpf = write_bpf(w, bd, deps.bpf) if deps.bpf else []
    targets = gate + interposer + bpf + write_kernels(e, "kernels/*.c", "kernels", probe_lib)
    test_kernels = write_kernels(e, "tests/kernels/*.c", "tests/kernels", probe_lib)
    write_bench(e, probe_lib)
    tests = []
    if deps.criterion and deps.jansson:
        tests = write_tests(e, [gate_lib, probe_lib], gate + test_kernels)
    if tests and platform.name == "linux":
        test_kernels += write_preload(e)
    if not platform.is_windows():
        pcs = write_pkgconfig(bd, os.path.abspath(args.prefix), version)
        write_install(w, bd, os.path.abspath(args.prefix), gate, bpf,
                      [probe_lib] + interposer, pcs, write_build_packages(bd, version))
    fuzz = []
    if deps.fuzz_cc:
        fuzz = write_fuzz(w, bd, deps.fuzz_cc, gate_sources(platform), version_header)
    elif deps.fuzz_note:
        w.comment(deps.fuzz_note)   # what ci/test.sh and ci/fuzz.sh say
    w.build("tests", "phony", tests + test_kernels)
    w.build("all", "phony", targets + tests + test_kernels + fuzz)
    w.default(targets)

    write_file(os.path.join(ROOT, args.ninja_file), w.text())
    print("configure.py: %s for %s with %s; %s written" % (version, platform.name, tc.cc,
                                                         args.ninja_file))
    for note in deps.notes:
        print("configure.py: " + note)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
