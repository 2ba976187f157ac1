#!/bin/sh
# tools/zoned-vm/run.sh -- boot the zoned-device guest of docs/fio-zoned.md
# section 4.2 (QEMU with an emulated NVMe ZNS namespace; init and test.sh
# there are the initramfs's /init and /test.sh).  Run in the folder that
# holds the guest's kernel tree k/, initrd.cpio and zns.img, built as that
# section says.
exec nice -n 10 timeout 900 qemu-system-x86_64 -machine q35 -m 6G -smp 1 -nographic -no-reboot \
 -kernel k/boot/vmlinuz-6.1.0-57-amd64 -initrd initrd.cpio \
 -append "console=ttyS0 panic=-1 loglevel=4" \
 -drive file=zns.img,id=nvm,format=raw,if=none \
 -device nvme,serial=deadbeef,id=nvme0 \
 -device nvme-ns,drive=nvm,bus=nvme0,nsid=1,logical_block_size=4096,physical_block_size=4096,zoned=true,zoned.zone_size=16M,zoned.zone_capacity=12M,zoned.max_open=4,zoned.max_active=6
