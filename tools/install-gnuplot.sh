#!/bin/sh
# Installs gnuplot (Debian's gnuplot-nox: PNG and SVG terminals, no X)
# for the scenario plots, when this machine can: as root with apt-get.
# Without it ssdlab still runs every scenario and writes the data and the
# .gp scripts; only the pictures are missing.
command -v gnuplot >/dev/null 2>&1 && exit 0
if [ "$(id -u)" -ne 0 ] || ! command -v apt-get >/dev/null 2>&1; then
	echo "note: gnuplot is not installed (as root: apt-get install gnuplot-nox);" \
	     "plots will not be drawn" >&2
	exit 0
fi
echo "installing gnuplot-nox for the plots..." >&2
if ! { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq gnuplot-nox; } >/dev/null 2>&1; then
	echo "note: gnuplot could not be installed; plots will not be drawn" >&2
fi
exit 0
