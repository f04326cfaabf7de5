#!/bin/busybox sh
# /init of a virtual NUMA lab guest (tests/numa_lab/run_machine.py packs it).
#
# The initramfs holds busybox, the static guest test program, the machine
# description and the in-guest actions the runner derived from it:
#   /lab/offline   processors to take offline ("" or "3 5")
#   /lab/taskset   the cpulist the test process is restricted to ("" = none)
#   /lab/args      extra arguments for the guest program (a gtest filter, ...)
#   /lab/nonce     a random word that makes the end marker unambiguous
#   /lab/shell     present: start a shell on the console after the tests
#   /lab/bin/      present on machines with guest.mpi: the programs of an Open
#                  MPI job (ulibc, its kernels' programs) and mpirun
# Whatever happens, the last line is the end marker with the exit status, so
# the runner never mistakes a guest that stopped early for one that passed.
/bin/busybox --install -s /bin
export PATH=/bin
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev
# As on a booted distribution (the library reads the cgroup's cpuset when
# OpenMP binding variables make the process mask unreliable).
mount -t cgroup2 cgroup2 /sys/fs/cgroup 2>/dev/null
# Transparent huge pages as distributions ship them (Debian, RHEL: always).
# The kernel turns THP off by itself below 512 MiB of memory, which would make
# the small machines of the lab place memory unlike the larger ones and unlike
# real servers. A transparent_hugepage= on the kernel command line (the
# runner's --append) still decides.
case " $(cat /proc/cmdline) " in
  *" transparent_hugepage="*) ;;
  *) echo always >/sys/kernel/mm/transparent_hugepage/enabled 2>/dev/null ;;
esac
# Automatic NUMA balancing off (Debian's kernel turns it on where there are
# two nodes or more). Its scanner makes a running process's pages inaccessible
# to sample which node touches them, and may move them: a page query then finds
# pages absent or elsewhere depending on when the scan passed, not on where the
# library put them. The checks test the library's placement; numa_balancing=
# on the kernel command line still decides.
case " $(cat /proc/cmdline) " in
  *" numa_balancing="*) ;;
  *) echo 0 >/proc/sys/kernel/numa_balancing 2>/dev/null ;;
esac

# Open MPI's launcher and its daemon talk over TCP, on the loopback interface
# alone in a guest without a network, and name the machine by its host name
# (the kernel's default, "(none)", is not one).
ifconfig lo 127.0.0.1 up 2>/dev/null
hostname numa-lab

nonce=$(cat /lab/nonce)
status=0
for cpu in $(cat /lab/offline); do
  if ! echo 0 >/sys/devices/system/cpu/cpu"$cpu"/online; then
    echo "lab: cannot take processor $cpu offline"
    status=90
  fi
done

if [ "$status" -eq 0 ]; then
  # shellcheck disable=SC2046 # the arguments are words the runner wrote
  set -- /lab/guest --machine /lab/machine.json $(cat /lab/args)
  restrict=$(cat /lab/taskset)
  [ -n "$restrict" ] && set -- taskset -c "$restrict" "$@"
  "$@"
  status=$?
fi
echo "ULIBC_LAB_END $nonce status=$status"

if [ -e /lab/shell ]; then
  echo "lab: shell on the console; 'poweroff -f' ends the machine"
  setsid cttyhack sh
fi
sync
poweroff -f
