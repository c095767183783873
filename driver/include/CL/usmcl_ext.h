/* usmcl's own extension functions, reached through
 * clGetExtensionFunctionAddressForPlatform (docs/memory-model.md). */
#ifndef USMCL_EXT_H
#define USMCL_EXT_H

#include <CL/cl.h>

#ifdef __cplusplus
extern "C" {
#endif

/* clGetDeviceMigrationCountersUSMCL: the copies between memory domains that
 * have run since the platform was created, as seen from the memory domain of
 * a device, in this order. "host" is the host domain (host memory, the CPU
 * device); "devices" every other domain (discrete-memory devices, NUMA
 * domains). For the CPU device the counters are the host domain's: what came
 * back from the devices and what went to them. */
#define CL_MIGRATED_BYTES_FROM_HOST_USMCL 0
#define CL_MIGRATED_BYTES_TO_HOST_USMCL 1
#define CL_MIGRATED_BYTES_FROM_DEVICES_USMCL 2
#define CL_MIGRATED_BYTES_TO_DEVICES_USMCL 3
#define CL_MIGRATIONS_FROM_HOST_USMCL 4
#define CL_MIGRATIONS_TO_HOST_USMCL 5
#define CL_MIGRATIONS_FROM_DEVICES_USMCL 6
#define CL_MIGRATIONS_TO_DEVICES_USMCL 7
#define CL_MIGRATION_COUNTERS_USMCL 8 /* how many there are */
/* Device only: the host transfers of commands on its queues
 * (clEnqueueReadBuffer, clEnqueueWriteBuffer, their Rect forms and the image
 * reads and writes), bytes and commands, into the device's memory domain
 * (FROM_HOST) and out of it (TO_HOST); not migrations, so not in the first
 * eight. Always 0 for a device whose memory is the host's. */
#define CL_TRANSFERRED_BYTES_FROM_HOST_USMCL 8
#define CL_TRANSFERRED_BYTES_TO_HOST_USMCL 9
#define CL_TRANSFERS_FROM_HOST_USMCL 10
#define CL_TRANSFERS_TO_HOST_USMCL 11
#define CL_DEVICE_MIGRATION_COUNTERS_USMCL 12 /* how many a device has */

/* Writes the first min(num_values, CL_DEVICE_MIGRATION_COUNTERS_USMCL)
 * counters to values and their number (CL_DEVICE_MIGRATION_COUNTERS_USMCL)
 * to *num_values_ret. CL_INVALID_DEVICE if device is
 * not a usmcl device; CL_INVALID_VALUE if values is NULL and num_values is
 * not 0, or if values and num_values_ret are both NULL. */
typedef cl_int(CL_API_CALL* clGetDeviceMigrationCountersUSMCL_fn)(cl_device_id device,
                                                                  cl_uint num_values,
                                                                  cl_ulong* values,
                                                                  cl_uint* num_values_ret);

/* clGetMemObjectMigrationCountersUSMCL: the copies planned so far for a
 * memory object's bytes (a sub-buffer answers for its parent's, whose bytes
 * it shares), with the same indices: FROM_HOST are copies from the host
 * domain to a device's, TO_HOST copies back, FROM_DEVICES and TO_DEVICES
 * both the copies between two device domains. Counted when the commands are
 * enqueued. CL_INVALID_MEM_OBJECT if memobj is not a memory object;
 * CL_INVALID_VALUE as for clGetDeviceMigrationCountersUSMCL. */
typedef cl_int(CL_API_CALL* clGetMemObjectMigrationCountersUSMCL_fn)(cl_mem memobj,
                                                                     cl_uint num_values,
                                                                     cl_ulong* values,
                                                                     cl_uint* num_values_ret);

/* clGetMemAllocMigrationCountersUSMCL: the copies so far of the USM
 * allocation that contains ptr, with the same indices: FROM_HOST bytes and
 * MIGRATIONS the blocks moved into its device's memory, TO_HOST those moved
 * back (the shared allocations of a discrete-memory device, which migrate by
 * blocks of 64 KiB, the last one rounded up to whole pages); FROM_DEVICES
 * and TO_DEVICES are 0. Every other allocation never moves: all 0.
 * CL_INVALID_CONTEXT if context is not a context; CL_INVALID_VALUE if ptr is
 * not inside a USM allocation of context, and as for
 * clGetDeviceMigrationCountersUSMCL. */
typedef cl_int(CL_API_CALL* clGetMemAllocMigrationCountersUSMCL_fn)(cl_context context,
                                                                    const void* ptr,
                                                                    cl_uint num_values,
                                                                    cl_ulong* values,
                                                                    cl_uint* num_values_ret);

/* clGetMemAllocInfoINTEL: the bytes of the allocation that are in its
 * device's memory domain now, when that domain is not the host's (a
 * cl_ulong): all of a discrete-memory device's device allocations, the
 * blocks of its shared allocations resident there (whole blocks, as the
 * counters count them), all of the allocations of a device with a NUMA
 * domain of its own; 0 for host allocations, for the CPU device's, and for
 * a pointer outside every allocation. */
#define CL_MEM_ALLOC_RESIDENT_BYTES_USMCL 0x7F5C0001

#ifdef __cplusplus
}
#endif

#endif
