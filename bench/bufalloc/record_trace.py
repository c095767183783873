#!/usr/bin/env python3
"""Turn usmcl's memory debug log into a device-region allocation trace.

A discrete-memory device carves every buffer instance and USM device
allocation from one bufalloc region; with USMCL_DEBUG=memory the driver logs
each allocation and free of that region, under the region's lock, so the
log's order is the region's:

  usmcl[memory] memory domain 1 (discrete0): region of 1073741824 bytes at 0x7f...
  usmcl[memory] domain discrete0 region: allocated 4096 bytes (alignment 128) at offset 0x1000
  usmcl[memory] domain discrete0 region: freed 4096 bytes at offset 0x1000
  usmcl[memory] domain discrete0 region: no room for 8192 bytes (alignment 128, out_of_space)

This script reads such a log (one process: USMCL_DEBUG_FILE appends, so give
each process a file of its own) and writes the trace of one domain's region
(the first one seen, or --domain) that bench/bufalloc/bufalloc_bench replays
and tests/unit/bufalloc checks:

  # comment lines (what was traced, with which command, what was cut)
  region <bytes> base <hex address> granule 128
  a <size> <offset> [<alignment>]   allocation number 0, 1, ... in order of its line;
                                    the alignment when it is not the granule
  f <allocation number>             a free
  x <size> [<alignment>]            a request the device could not place

Allocations still live when the process ended are left live. When the trace
would pass --max-bytes it is cut: the operations after the last one that
fits are dropped, and a header line says how many were kept.

Only the Python 3 standard library is used.
"""

import argparse
import re
import sys

GRANULE = 128  # driver/memory/domain.hpp: instance_alignment

REGION = re.compile(r'usmcl\[memory\] memory domain \d+ \((?P<domain>[^)]+)\): '
                    r'region of (?P<bytes>\d+) bytes at (?P<base>0x[0-9a-fA-F]+)')
ALLOCATED = re.compile(r'usmcl\[memory\] domain (?P<domain>\S+) region: allocated (?P<size>\d+) '
                       r'bytes \(alignment (?P<alignment>\d+)\) at offset (?P<offset>0x[0-9a-f]+|0)')
FREED = re.compile(r'usmcl\[memory\] domain (?P<domain>\S+) region: freed (?P<size>\d+) bytes '
                   r'at offset (?P<offset>0x[0-9a-f]+|0)')
NO_ROOM = re.compile(r'usmcl\[memory\] domain (?P<domain>\S+) region: no room for (?P<size>\d+) '
                     r'bytes \(alignment (?P<alignment>\d+)')


class Trace:
    """The operations on one domain's region, in order."""

    def __init__(self, domain, region_bytes, base):
        self.domain = domain
        self.region_bytes = region_bytes
        self.base = base
        self.lines = []          # trace lines, without the header
        self.live = {}           # offset -> (allocation number, size)
        self.allocations = 0
        self.frees = 0
        self.refused = 0
        self.peak_live_bytes = 0
        self.live_bytes = 0
        self.problems = []

    def allocated(self, size, alignment, offset):
        if offset in self.live:
            self.problems.append('offset %#x allocated twice' % offset)
        self.live[offset] = (self.allocations, size)
        self.allocations += 1
        self.live_bytes += size
        self.peak_live_bytes = max(self.peak_live_bytes, self.live_bytes)
        suffix = '' if alignment == GRANULE else ' %d' % alignment
        self.lines.append('a %d %d%s' % (size, offset, suffix))

    def freed(self, size, offset):
        entry = self.live.pop(offset, None)
        if entry is None:
            self.problems.append('free of %#x, which is not allocated' % offset)
            return
        number, allocated_size = entry
        if allocated_size != size:
            self.problems.append('allocation %d of %d bytes freed as %d' % (number, allocated_size,
                                                                             size))
        self.frees += 1
        self.live_bytes -= allocated_size
        self.lines.append('f %d' % number)

    def no_room(self, size, alignment):
        self.refused += 1
        suffix = '' if alignment == GRANULE else ' %d' % alignment
        self.lines.append('x %d%s' % (size, suffix))


def read_log(path, domain):
    """The trace of `domain` (None: the first with a region) in the log at `path`."""
    trace = None
    with open(path, errors='replace') as log:
        for line in log:
            if 'usmcl[memory]' not in line:
                continue
            match = REGION.search(line)
            if match:
                if trace is not None and match['domain'] == trace.domain:
                    sys.exit('%s: a second region for %s: one process per log, please' %
                             (path, trace.domain))
                if trace is None and (domain is None or match['domain'] == domain):
                    trace = Trace(match['domain'], int(match['bytes']), int(match['base'], 16))
                continue
            if trace is None:
                continue
            match = ALLOCATED.search(line)
            if match and match['domain'] == trace.domain:
                trace.allocated(int(match['size']), int(match['alignment']),
                                int(match['offset'], 16))
                continue
            match = FREED.search(line)
            if match and match['domain'] == trace.domain:
                trace.freed(int(match['size']), int(match['offset'], 16))
                continue
            match = NO_ROOM.search(line)
            if match and match['domain'] == trace.domain:
                trace.no_room(int(match['size']), int(match['alignment']))
    return trace


def write_trace(trace, output, client, command, max_bytes):
    header = [
        '# usmcl device-region allocation trace, made by bench/bufalloc/record_trace.py from '
        'the USMCL_DEBUG=memory log',
        '# client: ' + client,
    ]
    if command:
        header.append('# command: ' + command)
    header.append('# domain %s: %d allocations, %d frees, %d requests refused, %d allocations '
                  'live at the end, peak live %d bytes' %
                  (trace.domain, trace.allocations, trace.frees, trace.refused, len(trace.live),
                   trace.peak_live_bytes))
    kept = len(trace.lines)
    body_limit = max_bytes - sum(len(h) + 1 for h in header) - 200
    size = 0
    for index, line in enumerate(trace.lines):
        size += len(line) + 1
        if size > body_limit:
            kept = index
            break
    if kept < len(trace.lines):
        header.append('# cut: the first %d of %d operations (the rest dropped to stay under '
                      '%d bytes); allocations live at the cut stay live' %
                      (kept, len(trace.lines), max_bytes))
    else:
        header.append('# complete: all %d operations' % kept)
    header.append('region %d base %#x granule %d' % (trace.region_bytes, trace.base, GRANULE))
    with open(output, 'w') as out:
        out.write('\n'.join(header + trace.lines[:kept]) + '\n')
    return kept


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument('log', help='a USMCL_DEBUG=memory log of one process (USMCL_DEBUG_FILE)')
    parser.add_argument('output', help='the trace file to write')
    parser.add_argument('--client', required=True, help='what ran, for the header')
    parser.add_argument('--command', help='the command that ran it, for the header')
    parser.add_argument('--domain', help='the domain whose region is traced (default: the first)')
    parser.add_argument('--max-bytes', type=int, default=900000,
                        help='cut the trace to stay under this size (default: %(default)s)')
    args = parser.parse_args()

    trace = read_log(args.log, args.domain)
    if trace is None:
        sys.exit('%s: no region of a discrete-memory domain in the log (USMCL_DEBUG=memory, '
                 'USMCL_DEVICES=discrete?)' % args.log)
    for problem in trace.problems[:10]:
        print('warning: ' + problem, file=sys.stderr)
    kept = write_trace(trace, args.output, args.client, args.command, args.max_bytes)
    print('%s: domain %s, %d allocations, %d frees, %d refused, %d live at the end, '
          'peak live %d bytes; %d of %d operations written' %
          (args.output, trace.domain, trace.allocations, trace.frees, trace.refused,
           len(trace.live), trace.peak_live_bytes, kept, len(trace.lines)))
    return 1 if trace.problems else 0


if __name__ == '__main__':
    sys.exit(main())
