# ssdlab serve, served safely: where it listens and its TLS are checked
# before nbdkit starts (one line, exit 2); an address other hosts reach
# is refused without client authentication unless --insecure says so;
# TLS with pre-shared keys and with X.509 client certificates admits the
# real clients that hold the key (nbdinfo, qemu-io, qemu-img, nbdcopy,
# fio's nbd engine) and refuses those that do not; a --readonly export
# refuses writes, trims and zeroing with EPERM, even from a client that
# ignores the read-only flag, and the drive's report counts none.
. "$TOP/tests/cli/lib.inc"
. "$TOP/tests/cli/serve.inc"

for tool in psktool certtool; do
	command -v $tool >/dev/null 2>&1 ||
		{ echo "SKIP: $tool is not installed (apt-get install gnutls-bin)"; exit 77; }
done
nbdkit --dump-config | grep -q '^tls=yes' ||
	{ echo "SKIP: this nbdkit is built without TLS"; exit 77; }

# every server this test starts, stopped however it ends
pids=
cleanup_all() {
	for p in $pids; do kill -9 "$p" 2>/dev/null || true; done
}
trap cleanup_all EXIT
# launch NAME PROBE-URI ARGS...: ssdlab serve ARGS, its pid in $srv,
# ready once a client of PROBE-URI gets the size
launch() {
	lname=$1 probe=$2; shift 2
	"$SSDLAB" serve --drive tiny --clock fast "$@" >"$lname.out" 2>"$lname.err" &
	srv=$!
	pids="$pids $srv"
	i=0
	until nbdinfo --size "$probe" >/dev/null 2>&1; do
		i=$((i + 1))
		kill -0 $srv 2>/dev/null || { cat "$lname.err" >&2; fail "server $lname died"; }
		[ $i -lt 400 ] || fail "server $lname did not listen"
		sleep 0.05
	done
}
# a TCP port nothing listens on now
free_port() {
	python3 -c 'import socket; s = socket.socket(); s.bind(("0.0.0.0", 0)); print(s.getsockname()[1])'
}
# refused CMD...: a client that must not get in
refused() {
	if "$@" >refused.out 2>&1; then fail "a client got in: $*"; fi
}

# ---- the credentials: pre-shared keys and a small X.509 set ----
psktool -u alice -p keys.psk >/dev/null
psktool -u alice -p other.psk >/dev/null            # alice, another key
sed 's/^alice:/bob:/' keys.psk >bob.psk              # the key, another name
mkdir -p qemu-psk && cp keys.psk qemu-psk/keys.psk   # qemu wants DIR/keys.psk
mkdir -p ca server client noclient
certtool --generate-privkey --key-type=ecdsa --outfile ca/ca-key.pem 2>/dev/null
printf 'cn = ssdlab test CA\nca\ncert_signing_key\nexpiration_days = 2\n' >ca.info
certtool --generate-self-signed --load-privkey ca/ca-key.pem --template ca.info \
	--outfile ca/ca-cert.pem 2>/dev/null
for who in server client; do
	certtool --generate-privkey --key-type=ecdsa --outfile $who/$who-key.pem 2>/dev/null
	if [ $who = server ]; then
		printf 'cn = localhost\ndns_name = localhost\nip_address = 127.0.0.1\ntls_www_server\n' >$who.info
	else
		printf 'cn = client\ntls_www_client\n' >$who.info
	fi
	printf 'encryption_key\nsigning_key\nexpiration_days = 2\n' >>$who.info
	certtool --generate-certificate --load-ca-certificate ca/ca-cert.pem \
		--load-ca-privkey ca/ca-key.pem --load-privkey $who/$who-key.pem \
		--template $who.info --outfile $who/$who-cert.pem 2>/dev/null
	cp ca/ca-cert.pem $who/
done
cp ca/ca-cert.pem noclient/                          # trusts the server, has no certificate
[ -s server/server-cert.pem ] && [ -s client/client-cert.pem ] || fail "certtool made no certificates"

# ---- checked before nbdkit starts: one line, exit 2, at once ----
# (timeout: an exit that hangs is a failure, not a stuck test)
T="timeout -k 5 60"
expect_err 2 "ip needs an IPv4 or IPv6 address.*'999.1.1.1'" $T "$SSDLAB" serve --ip 999.1.1.1
expect_err 2 "ip needs an IPv4 or IPv6 address.*'localhost'" $T "$SSDLAB" serve --ip localhost
expect_err 2 "ip needs an IPv4 or IPv6 address" $T "$SSDLAB" serve --ip 1::2::3 --port 10809
for bad in "--ip 0.0.0.0" "--ip ::" "--ip 0.0.0.0 --readonly" \
	   "--ip 0.0.0.0 --tls=on --tls-psk keys.psk" \
	   "--ip 0.0.0.0 --tls-psk keys.psk" \
	   "--ip 0.0.0.0 --tls=require --tls-certificates server"; do
	# shellcheck disable=SC2086
	expect_err 2 "lets any host that reaches it .*--tls=require.*--insecure" \
		$T "$SSDLAB" serve $bad
done
expect_err 2 "192.0.2.1 port 10809: .*not an address of this host" \
	$T "$SSDLAB" serve --ip 192.0.2.1 --insecure
expect_err 2 "ip goes with --port" $T "$SSDLAB" serve --run true --ip 0.0.0.0
expect_err 2 "port needs a port number" $T "$SSDLAB" serve --port 65536
expect_err 2 "a socket's path has 1 to" $T "$SSDLAB" serve \
	--socket "$PWD/$(printf '%0120d' 0).sock"
expect_err 2 "tls needs off, on or require, got 'yes'" $T "$SSDLAB" serve --tls=yes
expect_err 2 "tls=require needs --tls-psk FILE or --tls-certificates DIR" \
	$T "$SSDLAB" serve --tls=require
expect_err 2 "tls=on needs" $T "$SSDLAB" serve --tls on
expect_err 2 "tls-psk nokeys.psk: No such file" $T "$SSDLAB" serve --tls-psk nokeys.psk
printf 'alice:17db45\nbob 1234\n' >bad.psk
expect_err 2 "tls-psk bad.psk:2: wanted USERNAME:HEXKEY" $T "$SSDLAB" serve --tls-psk bad.psk
: >empty.psk
expect_err 2 "tls-psk empty.psk: no keys" $T "$SSDLAB" serve --tls-psk empty.psk
expect_err 2 "tls-certificates nodir: No such file" $T "$SSDLAB" serve --tls-certificates nodir
expect_err 2 "tls-certificates client: server-cert.pem: No such file" \
	$T "$SSDLAB" serve --tls-certificates client
expect_err 2 "tls-verify-peer .*--tls-certificates" $T "$SSDLAB" serve --tls-verify-peer
expect_err 2 "'--tls=require' after '--'" $T "$SSDLAB" serve -- --tls=require
expect_err 2 "'-i' after '--'" $T "$SSDLAB" serve -- -i 0.0.0.0

# ---- TLS with pre-shared keys, on a Unix socket ----
S="$PWD/psk.sock"
PSK_URI="nbds+unix://alice@/?socket=$S&tls-psk-file=$PWD/keys.psk"
launch psk "$PSK_URI" --socket "$S" --tls=require --tls-psk keys.psk \
	--output psk.json --output-format json
nbdinfo "$PSK_URI" >info.out || fail "nbdinfo with the key"
grep -q "with TLS" info.out || fail "nbdinfo: not TLS: $(cat info.out)"
refused nbdinfo "nbd+unix:///?socket=$S"                                  # no TLS
refused nbdinfo "nbds+unix://alice@/?socket=$S&tls-psk-file=$PWD/other.psk"   # wrong key
refused nbdinfo "nbds+unix://bob@/?socket=$S&tls-psk-file=$PWD/bob.psk"       # unknown name
refused qemu-img info -f raw "nbd+unix:///?socket=$S"
# qemu: a PSK credentials object
QPSK="--object tls-creds-psk,id=tls0,dir=$PWD/qemu-psk,username=alice,endpoint=client"
QIMG="driver=nbd,server.type=unix,server.path=$S,tls-creds=tls0"
# shellcheck disable=SC2086
qemu-io $QPSK --image-opts "$QIMG" -c 'write -P 0xab 0 1M' -c 'read -P 0xab 0 1M' \
	>q.out 2>&1 || { cat q.out >&2; fail "qemu-io over TLS-PSK"; }
! grep -qi "verification failed\|error" q.out || { cat q.out >&2; fail "qemu-io over TLS-PSK"; }
# shellcheck disable=SC2086
qemu-img info $QPSK --image-opts "$QIMG" >qi.out 2>&1 || { cat qi.out >&2; fail "qemu-img info over TLS-PSK"; }
grep -q "virtual size: 64 MiB" qi.out || fail "qemu-img info: $(cat qi.out)"
# nbdcopy in and out
head -c 2097152 /dev/urandom >in.bin
nbdcopy in.bin "$PSK_URI" || fail "nbdcopy in over TLS-PSK"
nbdcopy "$PSK_URI" out.img || fail "nbdcopy out over TLS-PSK"
[ "$(head -c 2097152 out.img | sha256sum)" = "$(sha256sum <in.bin)" ] || fail "nbdcopy round trip over TLS-PSK"
kill -TERM $srv; wait $srv || fail "psk server exited $?"
[ "$(jq psk.json 'j["write"]["io_bytes"] >= 3 << 20')" = True ] ||
	fail "the report does not count the clients' writes: $(jq psk.json 'j["write"]["io_bytes"]')"

# ---- X.509: the server's certificate, the clients' checked ----
S="$PWD/x509.sock"
X509_URI="nbds+unix:///?socket=$S&tls-certificates=$PWD/client"
launch x509 "$X509_URI" --socket "$S" --tls=require --tls-certificates server \
	--tls-verify-peer --output x509.json --output-format json
refused nbdinfo "nbds+unix:///?socket=$S&tls-certificates=$PWD/noclient"   # no client certificate
refused nbdinfo "nbd+unix:///?socket=$S"
QX="--object tls-creds-x509,id=tls0,dir=$PWD/client,endpoint=client"
# shellcheck disable=SC2086
qemu-io $QX --image-opts "driver=nbd,server.type=unix,server.path=$S,tls-creds=tls0,tls-hostname=localhost" \
	-c 'write -P 0xcd 0 64k' -c 'read -P 0xcd 0 64k' >q.out 2>&1 ||
	{ cat q.out >&2; fail "qemu-io over TLS with certificates"; }
! grep -qi "verification failed\|error" q.out || { cat q.out >&2; fail "qemu-io over TLS with certificates"; }
# fio's nbd engine: libnbd refuses file names in fio's URIs (it does not
# allow local files), so the client's certificates are where libnbd
# looks by default: $HOME/.pki/libnbd for a user other than root (here
# a user namespace when this runs as root)
mkdir -p home/.pki
cp -r client home/.pki/libnbd
cat >tls.fio <<'EOF'
[global]
ioengine=nbd
uri=${URI}
bs=4k
size=8m
[w]
rw=randwrite
iodepth=8
verify=crc32c
EOF
as_user=
[ "$(id -u)" != 0 ] || as_user="unshare --user --map-user=1000 --map-group=1000"
if [ -z "$as_user" ] || $as_user true 2>/dev/null; then
	URI="nbds+unix:///?socket=$S" HOME="$PWD/home" $as_user fio tls.fio >fio.out 2>&1 ||
		{ cat fio.out >&2; fail "fio's nbd engine over TLS"; }
	grep -q "err= 0" fio.out || { cat fio.out >&2; fail "fio over TLS: errors"; }
	# and without a certificate it is refused
	mkdir -p bare/.pki
	cp -r noclient bare/.pki/libnbd
	if URI="nbds+unix:///?socket=$S" HOME="$PWD/bare" $as_user fio tls.fio >fio2.out 2>&1 &&
	   grep -q "err= 0" fio2.out; then
		fail "fio without a client certificate got in"
	fi
else
	echo "note: fio over TLS not tried: no user namespace for a user other than root here"
fi
kill -TERM $srv; wait $srv || fail "x509 server exited $?"

# ---- an address other hosts reach: with TLS and a key, or --insecure ----
P=$(free_port)
launch any "nbds://alice@127.0.0.1:$P/?tls-psk-file=$PWD/keys.psk" \
	--ip 0.0.0.0 --port "$P" --tls=require --tls-psk keys.psk
refused nbdinfo "nbd://127.0.0.1:$P/"
refused nbdinfo "nbds://alice@127.0.0.1:$P/?tls-psk-file=$PWD/other.psk"
# the port is taken now: serve says so itself
expect_err 2 "cannot listen on 0.0.0.0 port $P: .*another server listens there" \
	$T "$SSDLAB" serve --ip 0.0.0.0 --port "$P" --tls=require --tls-psk keys.psk
kill -TERM $srv; wait $srv || fail "server on 0.0.0.0 exited $?"
# said explicitly: served as it is (read-only, for the few seconds here)
P=$(free_port)
launch open "nbd://127.0.0.1:$P/" --ip 0.0.0.0 --port "$P" --insecure --readonly
kill -TERM $srv; wait $srv || fail "server with --insecure exited $?"

# ---- --readonly: nothing reaches the drive ----
S="$PWD/ro.sock"
RO_URI="nbd+unix:///?socket=$S"
launch ro "$RO_URI" --socket "$S" --readonly --output ro.json --output-format json
nbdinfo --json "$RO_URI" >ro-info.json
[ "$(python3 -c 'import json, sys; e = json.load(open(sys.argv[1]))["exports"][0]; print(e["is_read_only"], e["can_trim"], e["can_zero"])' ro-info.json)" = "True False False" ] ||
	fail "nbdinfo: not a read-only export: $(cat ro-info.json)"
# a client that ignores the read-only flag sends the commands anyway
# (libnbd's Python binding, with its own checks off): nbdkit refuses
# each with EPERM
py=
for p in python3 /usr/bin/python3; do
	if $p -c 'import nbd' 2>/dev/null; then py=$p; break; fi
done
if [ -n "$py" ]; then
	$py - "$RO_URI" <<'EOF' || fail "a write, trim or zero reached a read-only export"
import errno, sys, nbd
h = nbd.NBD()
h.set_strict_mode(0)
h.connect_uri(sys.argv[1])
assert h.is_read_only()
for name, f in (("write", lambda: h.pwrite(b"x" * 4096, 0)),
                ("trim", lambda: h.trim(4096, 0)),
                ("zero", lambda: h.zero(4096, 0))):
    try:
        f()
        sys.exit(name + " accepted")
    except nbd.Error as e:
        err = errno.errorcode.get(e.errno, e.errno)
        assert err in ("EPERM", "EROFS"), (name, e.errno, e.string)
assert h.pread(4096, 0) == bytes(4096)
EOF
else
	echo "note: python3-libnbd is not installed: the raw write, trim and zero not tried"
fi
# fio writes: EPERM ("Operation not permitted")
printf '[global]\nioengine=nbd\nuri=${URI}\nbs=4k\nsize=1m\n[w]\nrw=write\n' >w.fio
if URI="$RO_URI" fio w.fio >w.out 2>&1; then fail "fio wrote to a read-only export"; fi
grep -q "Operation not permitted" w.out || fail "fio: $(tail -3 w.out)"
# qemu-io does not open it for writing, and reads it
refused qemu-io -f raw -c 'write -P 1 0 64k' "$RO_URI"
grep -q "Permission denied\|read-only\|read only" refused.out || fail "qemu-io: $(cat refused.out)"
qemu-io -r -f raw -c 'read -P 0 0 64k' "$RO_URI" >q.out 2>&1 || { cat q.out >&2; fail "qemu-io read"; }
! grep -qi "verification failed" q.out || fail "qemu-io read back"
refused nbdcopy in.bin "$RO_URI"
kill -TERM $srv; wait $srv || fail "read-only server exited $?"
[ "$(jq ro.json 'j["write"]["io_bytes"], j["trim"]["io_bytes"], j["ssdlab"]["host_pages_written"], j["ssdlab"]["host_pages_trimmed"], j["ssdlab"]["nand_pages_programmed"]')" = "(0, 0, 0, 0, 0)" ] ||
	fail "the read-only drive's report counts writes: $(jq ro.json 'j["write"]["io_bytes"], j["ssdlab"]["host_pages_written"], j["ssdlab"]["nand_pages_programmed"]')"
[ "$(jq ro.json 'j["read"]["io_bytes"] > 0')" = True ] || fail "the reads are not counted"
echo ok
