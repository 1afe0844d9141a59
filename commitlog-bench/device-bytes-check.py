#!/usr/bin/env python3
"""Checks the two sources of "bytes written to the device" against writes of known size.

Writes in the directory given (default: the current one) with pwrite + fdatasync and prints, per
workload, the bytes written, what /proc/self/io's write_bytes counted (and cancelled_write_bytes),
and what the block device's write-sectors counter (/sys/dev/block/MAJ:MIN/stat, field 7 x 512)
took. docs/benchmarks.md, "Device bytes", says what the figures showed and why the sweep reads
the device's counter. Every other writer on the device shows in the device's figure: run it on a
quiet machine, more than once.
"""
import os
import sys

MIB = 1 << 20


def proc_io():
    with open('/proc/self/io') as f:
        return {k: int(v) for k, v in (line.split(':') for line in f)}


def device_written(directory):
    dev = os.stat(directory).st_dev
    with open(f'/sys/dev/block/{os.major(dev)}:{os.minor(dev)}/stat') as f:
        return int(f.read().split()[6]) * 512


def measure(directory, name, workload):
    p0, d0 = proc_io(), device_written(directory)
    written = workload()
    p1, d1 = proc_io(), device_written(directory)
    wb = p1['write_bytes'] - p0['write_bytes']
    cancelled = p1['cancelled_write_bytes'] - p0['cancelled_write_bytes']
    print(f'{name}: wrote {written / MIB:.2f} MiB | /proc/self/io write_bytes {wb / MIB:.2f} MiB '
          f'({wb / written:.3f}x), cancelled {cancelled / MIB:.2f} MiB | device {(d1 - d0) / MIB:.2f} MiB '
          f'({(d1 - d0) / written:.3f}x)')


def pwrite_sync(path, size, count, stride=None, flags=os.O_WRONLY):
    def run():
        fd = os.open(path, flags)
        data = os.urandom(size)
        for i in range(count):
            os.pwrite(fd, data, i * (stride or size))
            os.fdatasync(fd)
        os.close(fd)
        return size * count
    return run


def fill_with_zeros(path, size, chunk):
    fd = os.open(path, os.O_CREAT | os.O_TRUNC | os.O_WRONLY)
    zeros = bytes(chunk)
    for offset in range(0, size, chunk):
        os.pwrite(fd, zeros, offset)
    os.fdatasync(fd)
    os.close(fd)


def buffered_then_deleted(path):
    fd = os.open(path, os.O_CREAT | os.O_TRUNC | os.O_WRONLY)
    data = os.urandom(MIB)
    for i in range(64):
        os.pwrite(fd, data, i * MIB)
    os.close(fd)
    os.unlink(path)
    return 64 * MIB


def main():
    directory = sys.argv[1] if len(sys.argv) > 1 else '.'
    path = os.path.join(directory, 'device-bytes-check.dat')
    create = os.O_CREAT | os.O_TRUNC | os.O_WRONLY
    measure(directory, 'new file, 64 x 1 MiB', pwrite_sync(path, MIB, 64, flags=create))
    measure(directory, 'same file overwritten, 64 x 1 MiB', pwrite_sync(path, MIB, 64))
    measure(directory, 'new file grown by 5000 x 100 B', pwrite_sync(path, 100, 5000, flags=create))
    for chunk in (4096, MIB):
        fill_with_zeros(path, 8 * MIB, chunk)
        measure(directory, f'8 MiB of zeros written in {chunk} B writes, then 5000 x 100 B',
                pwrite_sync(path, 100, 5000))
        measure(directory, f'8 MiB of zeros written in {chunk} B writes, then 1000 x 4 KiB',
                pwrite_sync(path, 4096, 1000))
    os.unlink(path)
    measure(directory, '64 x 1 MiB buffered, no sync, deleted', lambda: buffered_then_deleted(path))


if __name__ == '__main__':
    main()
