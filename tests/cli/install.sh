# ssdlab installed as a library: `make install PREFIX=...` of this tree
# (its existing build output), then programs that include only
# <ssdlab.h> build with `pkg-config --cflags --libs ssdlab`, static and
# shared, and print the version the tool prints; the installed tool finds
# the installed presets from anywhere; only the public header is
# installed; every examples/*.c builds and runs against the installed
# library; the Python package loads the installed library and runs
# examples/python/waf_vs_op.py; DESTDIR stages, and `make uninstall`
# removes every file.
. "$TOP/tests/cli/lib.inc"

need pkg-config make cc readelf nm
here=$(pwd)
prefix=$here/prefix
# a make of its own: not a part of the make that runs the tests
mk() { MAKEFLAGS= MAKELEVEL= make --no-print-directory -C "$TOP" -j2 "$@" >make.log 2>&1 ||
	{ tail -n 20 make.log >&2; fail "make $*"; }; }
mk install PREFIX="$prefix"

# what is installed
for f in bin/ssdlab lib/libssdlab.a lib/libssdlab.so include/ssdlab.h \
	 lib/pkgconfig/ssdlab.pc share/man/man1/ssdlab.1; do
	[ -f "$prefix/$f" ] || fail "not installed: $f"
done
[ "$(ls "$prefix/include")" = ssdlab.h ] || { ls -R "$prefix/include" >&2; fail "headers other than ssdlab.h installed"; }
version=$("$SSDLAB" --version | sed 's/^ssdlab //')
[ "$("$prefix/bin/ssdlab" --version)" = "ssdlab $version" ] || fail "installed ssdlab --version"
major=${version%%.*}
[ "$(readlink "$prefix/lib/libssdlab.so")" = "libssdlab.so.$major" ] || fail "libssdlab.so link"
[ "$(readlink "$prefix/lib/libssdlab.so.$major")" = "libssdlab.so.$version" ] || fail "soname link"
[ -f "$prefix/lib/libssdlab.so.$version" ] || fail "no libssdlab.so.$version"
readelf -d "$prefix/lib/libssdlab.so.$version" | grep -q "SONAME.*\[libssdlab.so.$major\]" ||
	fail "shared library's soname is not libssdlab.so.$major"
# the shared library exports the public interface and nothing else: every
# function of ssdlab.h, no internal ssd_* one
nm -D --defined-only "$prefix/lib/libssdlab.so.$version" |
	awk '$2 ~ /^[TDBRV]$/ && $3 !~ /^_/ { print $3 }' | sort >exported.txt
sed -n 's/^SSDLAB_API .*[ *]\(ssdlab_[a-z_]*\)(.*/\1/p' "$prefix/include/ssdlab.h" | sort >public.txt
[ -s public.txt ] || fail "no SSDLAB_API functions in ssdlab.h"
cmp -s exported.txt public.txt ||
	{ diff public.txt exported.txt >&2; fail "the shared library exports other than the public functions"; }
(cd "$TOP/presets" && ls *.ini) >want.txt
(cd "$prefix/share/ssdlab/presets" && ls *.ini) >got.txt
cmp -s want.txt got.txt || fail "installed presets differ from presets/"

# pkg-config
export PKG_CONFIG_PATH="$prefix/lib/pkgconfig"
[ "$(pkg-config --modversion ssdlab)" = "$version" ] || fail "pkg-config --modversion"
pkg-config --cflags ssdlab | grep -q -- "-I$prefix/include" || fail "pkg-config --cflags"
pkg-config --libs ssdlab | grep -q -- "-L$prefix/lib -lssdlab" || fail "pkg-config --libs"
pkg-config --static --libs ssdlab | grep -q -- "-lm" || fail "pkg-config --static --libs lacks -lm"

# a program that includes only the public header, both ways
cat >v.c <<'EOF2'
#include <stdio.h>
#include <string.h>
#include <ssdlab.h>

int main(void)
{
	if (strcmp(ssdlab_version(), SSDLAB_VERSION))
		return 1;
	printf("%s %d.%d.%d\n", ssdlab_version(), SSDLAB_VERSION_MAJOR,
	       SSDLAB_VERSION_MINOR, SSDLAB_VERSION_PATCH);
	return 0;
}
EOF2
CF="-std=c11 -Wall -Wextra -Wpedantic -Werror"
cc $CF -o v_shared v.c $(pkg-config --cflags --libs ssdlab) || fail "build against the shared library"
cc $CF -static -o v_static v.c $(pkg-config --cflags --libs --static ssdlab) || fail "build statically"
[ "$(LD_LIBRARY_PATH="$prefix/lib" ./v_shared)" = "$version $version" ] || fail "shared: version"
[ "$(./v_static)" = "$version $version" ] || fail "static: version"
readelf -d v_shared | grep -q "NEEDED.*\[libssdlab.so.$major\]" || fail "v_shared does not use libssdlab.so.$major"
! readelf -d v_static | grep -q "NEEDED.*libssdlab" || fail "v_static needs the shared library"

# the installed tool finds the installed presets, from anywhere: a preset
# only the installed tree has is listed and loads
cp "$prefix/share/ssdlab/presets/tiny.ini" "$prefix/share/ssdlab/presets/only-installed.ini"
(cd / && env -u SSDLAB_PRESETS "$prefix/bin/ssdlab" drives) >drives.txt || fail "installed ssdlab drives"
grep -q '^only-installed ' drives.txt || { cat drives.txt >&2; fail "installed ssdlab does not list the installed presets"; }
(cd / && env -u SSDLAB_PRESETS "$prefix/bin/ssdlab" drive show only-installed) >show.txt ||
	fail "installed ssdlab drive show of an installed preset"
rm "$prefix/share/ssdlab/presets/only-installed.ini"

# the installed ssdlab serve finds the installed nbdkit plugin
if ! have nbdkit || ! have nbdinfo; then
	skip_part "nbdkit and nbdinfo are not both installed: the installed ssdlab serve"
elif [ ! -f "$(dirname "$SSDLAB")/nbdkit-ssdlab-plugin.so" ]; then
	skip_part "the nbdkit plugin was not built (nbdkit-plugin-dev): the installed ssdlab serve"
else
	[ -f "$prefix/lib/ssdlab/nbdkit-ssdlab-plugin.so" ] || fail "the nbdkit plugin was not installed"
	(cd / && env -u SSDLAB_PRESETS "$prefix/bin/ssdlab" serve --drive tiny --clock fast \
		--output /dev/null --run 'nbdinfo --size "$uri"') >size.txt 2>serve.err ||
		{ cat serve.err >&2; fail "installed ssdlab serve"; }
	[ "$(cat size.txt)" = 67108864 ] || fail "installed ssdlab serve: size $(cat size.txt)"
fi

# the example programs: each builds against the installed library and runs
for ex in "$TOP"/examples/*.c; do
	[ -f "$ex" ] || continue
	name=$(basename "$ex" .c)
	cc $CF -o "ex_$name" "$ex" $(pkg-config --cflags --libs ssdlab) || fail "examples/$name.c does not build"
	# the installed presets, as an embedder finds them (pkg-config)
	presets=$(pkg-config --variable=presetdir ssdlab)
	[ "$presets" = "$prefix/share/ssdlab/presets" ] || fail "ssdlab.pc presetdir is '$presets'"
	SSDLAB_PRESETS="$presets" LD_LIBRARY_PATH="$prefix/lib" "./ex_$name" >"ex_$name.txt" 2>&1 ||
		{ cat "ex_$name.txt" >&2; fail "examples/$name.c failed"; }
done
# embed.c: a drive, a job built in code, its WAF (random writes into a
# full drive cost GC copies: above 1)
if [ -f ex_embed.txt ]; then
	grep -Eq 'WAF ([1-9][0-9]*)\.[0-9]+ \([1-9][0-9]* GC copies\)' ex_embed.txt ||
		{ cat ex_embed.txt >&2; fail "examples/embed.c printed no WAF of a GC-ing drive"; }
fi

# The Python package (docs/python.md): installed where python3 imports
# from under PREFIX, it loads the installed library and finds the
# installed presets from anywhere; examples/python/waf_vs_op.py runs on
# it: WAF falls as the spare fraction grows, and its plot is drawn where
# matplotlib is installed.
# (Debian's python3 where there is one, as make's PYTHON: the one
# python3-matplotlib serves)
py=python3
[ -x /usr/bin/python3 ] && py=/usr/bin/python3
if ! have "$py"; then
	skip_part "python3 is not installed: the Python package"
else
	pydir=$("$py" "$TOP/python/site_dir.py" "$prefix")
	case "$pydir" in "$prefix"/*) ;; *) fail "Python package directory $pydir is not under $prefix" ;; esac
	[ -f "$pydir/ssdlab/__init__.py" ] || fail "the Python package was not installed in $pydir"
	grep -qx "LIBRARY = \"$prefix/lib/libssdlab.so.$major\"" "$pydir/ssdlab/_config.py" ||
		{ cat "$pydir/ssdlab/_config.py" >&2; fail "_config.py does not name the installed library"; }
	pyrun() { (cd / && env -u SSDLAB_LIBRARY -u SSDLAB_PRESETS PYTHONPATH="$pydir" "$py" "$@"); }
	cp "$prefix/share/ssdlab/presets/tiny.ini" "$prefix/share/ssdlab/presets/only-installed.ini"
	pyrun -c 'import ssdlab; print(ssdlab.LIBRARY, ssdlab.__version__, ssdlab.Drive("only-installed").capacity)' \
		>py.txt 2>&1 || { cat py.txt >&2; fail "python3 -c 'import ssdlab' on the installed package"; }
	rm "$prefix/share/ssdlab/presets/only-installed.ini"
	[ "$(cat py.txt)" = "$prefix/lib/libssdlab.so.$major $version 67108864" ] ||
		{ cat py.txt >&2; fail "the installed package did not load the installed library and presets"; }
	cp "$TOP/examples/python/waf_vs_op.py" .
	(env -u SSDLAB_LIBRARY -u SSDLAB_PRESETS PYTHONPATH="$pydir" \
		"$py" waf_vs_op.py --ops 0.1,0.2,0.3,0.4 --png "$here/waf.png") >waf.txt 2>&1 ||
		{ cat waf.txt >&2; fail "examples/python/waf_vs_op.py failed"; }
	awk 'NR > 1 && $1 ~ /^0\.[0-9]+$/ { n++; if (n > 1 && $2 >= last) bad = 1; last = $2 }
	     END { exit !(n == 4 && !bad && last > 1) }' waf.txt ||
		{ cat waf.txt >&2; fail "waf_vs_op.py: not 4 rows of WAF falling with op"; }
	if "$py" -c 'import matplotlib' >/dev/null 2>&1; then
		grep -q "^plot: $here/waf.png$" waf.txt || { cat waf.txt >&2; fail "waf_vs_op.py drew no plot"; }
		[ "$(head -c 8 waf.png | od -An -tx1 | tr -d ' ')" = 89504e470d0a1a0a ] ||
			fail "waf.png is not a PNG"
	else
		grep -q "matplotlib is not installed: skipped the plot" waf.txt ||
			{ cat waf.txt >&2; fail "waf_vs_op.py did not say it skipped the plot"; }
		skip_part "matplotlib is not installed (python3-matplotlib): the example's plot"
	fi
fi

# DESTDIR stages the same tree; the .pc names PREFIX, not DESTDIR
mk install DESTDIR="$here/stage" PREFIX=/opt/ssdlab
[ -x "$here/stage/opt/ssdlab/bin/ssdlab" ] || fail "DESTDIR: no bin/ssdlab"
grep -q '^prefix=/opt/ssdlab$' "$here/stage/opt/ssdlab/lib/pkgconfig/ssdlab.pc" || fail "DESTDIR: ssdlab.pc prefix"

# Debian's python3 imports the package `make install` puts under the
# default PREFIX (/usr/local) with no PYTHONPATH: staged here, the
# directory it went to is on that python3's path
if [ -x /usr/bin/python3 ] && [ -f /etc/debian_version ]; then
	mk install DESTDIR="$here/stage-default" PYTHON=/usr/bin/python3
	init=$(cd "$here/stage-default" && find . -path '*/ssdlab/__init__.py' | sed 's|^\.||')
	[ -n "$init" ] || fail "DESTDIR, default PREFIX: no Python package"
	pkg=${init%/ssdlab/__init__.py}
	/usr/bin/python3 -c 'import sys; sys.exit(sys.argv[1] not in sys.path)' "$pkg" ||
		fail "the default PREFIX's Python package went to $pkg, not on /usr/bin/python3's path"
else
	skip_part "not Debian's /usr/bin/python3: the Python package under the default PREFIX"
fi

# uninstall removes every file it installed
mk uninstall PREFIX="$prefix"
left=$(find "$prefix" ! -type d)
[ -z "$left" ] || { echo "$left" >&2; fail "uninstall left files"; }
