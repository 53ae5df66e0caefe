# tests/e2e_install.sh: sourced by the end-to-end scripts that gate a
# project the way a user of an installed allocgate does.
#
# e2e_install NINJA_FILE DIR: `ninja install` of this build into DIR/dest
# (DESTDIR), the prefix under it (wherever bin/gate went: configure.py
# --prefix) into $inst; the sourcing script's fail() when it cannot.
e2e_install() {
	DESTDIR=$2/dest ninja -f "$1" install >"$2/install.log" 2>&1 ||
		{ cat "$2/install.log" >&2; fail "ninja install failed"; }
	e2e_gate_bin=$(find "$2/dest" -path '*/bin/gate' -type f | head -n 1)
	[ -n "$e2e_gate_bin" ] || fail "ninja install put no bin/gate under DESTDIR"
	inst=$(dirname "$(dirname "$e2e_gate_bin")")
}
