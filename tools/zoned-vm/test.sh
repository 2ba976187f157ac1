# The zoned-device guest's /test.sh (docs/fio-zoned.md section 4.2): fio's
# zoned example job files, on the guest's zoned devices, with the installed
# fio and fio HEAD, and the zones' states after each.
F='^\s+(clat|slat|lat |lat\(|\||bw|iops|cpu|IO depths|submit|complete|issued|latency|[0-9.]+=|clat percentiles)'
run() { echo; echo "### $*"; "$@" 2>&1 | grep -v -E "$F" | grep -v '^$' | head -${N:-40}; }
zst() { echo "zone states of $1: $(blkzone report $1 | grep -o 'zcond:[ 0-9]*([a-z]*)' | sed 's/ //g' | sort | uniq -c | tr '\n' ' ')"; }
B=zbd256
echo "big null_blk = $B"; for a in zoned chunk_sectors nr_zones max_open_zones max_active_zones; do echo "$B/$a=$(cat /sys/block/$B/queue/$a)"; done
sed "s#/dev/sd[a-z]#/dev/$B#; s#^runtime=.*#runtime=4#" /ex/zbd-rand-write.fio > /tmp/zbd-rand-write.fio
sed "s#/dev/sd[a-z]#/dev/$B#" /ex/zbd-seq-read.fio > /tmp/zbd-seq-read.fio
sed "s#/dev/sd[a-z]#/dev/$B#; s#^runtime=40#runtime=8#" /ex/zbd-rand-write-zone-reset-gc.fio > /tmp/zbd-rand-write-zone-reset-gc.fio
sed "s#/dev/sd[a-z]#/dev/$B#; s#^runtime=30#runtime=5#; s#^runtime=3\$#runtime=1#" /ex/zbd-rand-write-trim-gc.fio > /tmp/zbd-rand-write-trim-gc.fio
sed "s#/dev/ng1n1#/dev/ng0n1#; s#sqthread_poll=1#sqthread_poll=0#" /ex/uring-cmd-zoned-append.fio > /tmp/uring-cmd-zoned-append.fio
sed "s#^size=1G#size=96M#; s#sqthread_poll=1#sqthread_poll=0#" /ex/uring-cmd-zoned.fio > /tmp/uring-cmd-zoned.fio
sed "s#^size=1G#size=48M#" /ex/xnvme-zoned.fio > /tmp/xnvme-zoned.fio
for V in fio fio-head; do
  echo; echo "######## $V: $($V --version)"
  blkzone reset /dev/$B; blkzone reset /dev/nullb0; blkzone reset /dev/nvme0n1
  run $V /tmp/zbd-rand-write.fio
  zst /dev/$B
  run $V /tmp/zbd-rand-write-zone-reset-gc.fio
  run $V /tmp/zbd-rand-write-trim-gc.fio
  zst /dev/$B
  run $V /tmp/zbd-seq-read.fio
  run $V /tmp/zbd-seq-read.fio --read_beyond_wp=1
  run $V /tmp/uring-cmd-zoned.fio
  zst /dev/nvme0n1
  blkzone reset /dev/nvme0n1
  run $V /tmp/uring-cmd-zoned-append.fio
  zst /dev/nvme0n1
  blkzone reset /dev/nvme0n1
  run $V /tmp/xnvme-zoned.fio --section=default --ioengine=io_uring --filename=/dev/nvme0n1
  zst /dev/nvme0n1
  # pre-opened zones vs max_open_zones=2
  blkzone reset /dev/nullb0
  for z in 0 1 2 3; do $V --name=prep$z --filename=/dev/nullb0 --zonemode=zbd --direct=1 --rw=write --bs=1M --offset=${z}z --size=1z --io_size=1M >/dev/null 2>&1; done
  zst /dev/nullb0
  run $V --name=preopen --filename=/dev/nullb0 --zonemode=zbd --direct=1 --rw=randwrite --bs=1M --size=8z --io_size=8M --max_open_zones=2
  zst /dev/nullb0
  # rw mix first I/O, unaligned bs 3M into 12M cap zones? use 5M: remainder 2M
  blkzone reset /dev/nullb0
  run $V --name=unal --filename=/dev/nullb0 --zonemode=zbd --direct=1 --rw=write --bs=5M --size=4z
  blkzone report -c 4 /dev/nullb0
  blkzone reset /dev/nullb0
  run $V --name=unalr --filename=/dev/nullb0 --zonemode=zbd --direct=1 --rw=randwrite --bs=5M --size=4z --io_size=60M --max_open_zones=2
  blkzone report -c 4 /dev/nullb0
  # debug trace of zone choice
  blkzone reset /dev/nullb0
  N=60 run $V --name=dbg --filename=/dev/nullb0 --zonemode=zbd --direct=1 --rw=randwrite --bs=4M --size=6z --io_size=40M --max_open_zones=2 --randseed=1 --debug=zbd
  # verify with zone_reset_threshold
  blkzone reset /dev/nullb0
  run $V --name=vrf --filename=/dev/nullb0 --zonemode=zbd --direct=1 --rw=randwrite --bs=1M --size=4z --io_size=96M --verify=crc32c --zone_reset_threshold=0.5 --zone_reset_frequency=0.25
  run $V --name=wzr --filename=/dev/nullb0 --zonemode=zbd --direct=1 --rw=write --bs=5M --size=2z --write_zone_remainder=1
  run $V --name=wzr2 --filename=/dev/nullb0 --zonemode=zbd --direct=1 --rw=write --bs=5M --size=2z --write_zone_remainders=1
done
