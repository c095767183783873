/*
 * startup_probe: the process whose start-up startup_bench measures.
 *
 * A minimal OpenCL application: clGetPlatformIDs -> clGetDeviceIDs ->
 * clCreateContext through the ICD loader, whichever ICD OCL_ICD_VENDORS names.
 * It writes one line to stdout for the parent:
 *
 *   ok main=<ns> platforms=<ns> devices=<ns> context=<ns> rss_kb=<n> hwm_kb=<n>
 *      threads=<n> nplatforms=<n> name=<CL_PLATFORM_NAME>
 *
 * Times are CLOCK_MONOTONIC nanoseconds (one clock for the whole system, so the
 * parent can subtract its own timestamps). Memory and thread counts come from
 * /proc/self/status right after the context is created. On failure it writes
 * "error <what>" and exits 1.
 */

#define _POSIX_C_SOURCE 200809L /* clock_gettime, O_CLOEXEC */

#include <CL/cl.h>

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static unsigned long long now_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (unsigned long long)ts.tv_sec * 1000000000ull + (unsigned long long)ts.tv_nsec;
}

static int fail(const char* call, cl_int err) {
    printf("error %s returned %d\n", call, (int)err);
    return EXIT_FAILURE;
}

/* Value of a "Key:   <number> ..." line of /proc/self/status, -1 if absent.
 * Read with open/read into a stack buffer so the probe allocates nothing. */
static long status_value(const char* status, const char* key) {
    size_t key_len = strlen(key);
    for (const char* line = status; line != NULL && *line != '\0';) {
        if (strncmp(line, key, key_len) == 0 && line[key_len] == ':') {
            return strtol(line + key_len + 1, NULL, 10);
        }
        line = strchr(line, '\n');
        if (line != NULL) {
            ++line;
        }
    }
    return -1;
}

static void read_status(char* buffer, size_t size) {
    buffer[0] = '\0';
    int fd = open("/proc/self/status", O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        return;
    }
    size_t used = 0;
    for (;;) {
        ssize_t got = read(fd, buffer + used, size - 1 - used);
        if (got <= 0) {
            break;
        }
        used += (size_t)got;
    }
    buffer[used] = '\0';
    close(fd);
}

int main(void) {
    unsigned long long t_main = now_ns();

    cl_uint num_platforms = 0;
    cl_platform_id platform = NULL;
    cl_int err = clGetPlatformIDs(0, NULL, &num_platforms);
    if (err != CL_SUCCESS || num_platforms == 0) {
        return fail("clGetPlatformIDs(count)", err);
    }
    err = clGetPlatformIDs(1, &platform, NULL);
    if (err != CL_SUCCESS) {
        return fail("clGetPlatformIDs(list)", err);
    }
    unsigned long long t_platforms = now_ns();

    cl_device_id device = NULL;
    err = clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 1, &device, NULL);
    if (err != CL_SUCCESS) {
        return fail("clGetDeviceIDs", err);
    }
    unsigned long long t_devices = now_ns();

    const cl_context_properties properties[] = {CL_CONTEXT_PLATFORM,
                                                (cl_context_properties)platform, 0};
    cl_context context = clCreateContext(properties, 1, &device, NULL, NULL, &err);
    if (err != CL_SUCCESS || context == NULL) {
        return fail("clCreateContext", err);
    }
    unsigned long long t_context = now_ns();

    char status[8192];
    read_status(status, sizeof status);
    long rss_kb = status_value(status, "VmRSS");
    long hwm_kb = status_value(status, "VmHWM");
    long threads = status_value(status, "Threads");

    char name[256] = "?";
    err = clGetPlatformInfo(platform, CL_PLATFORM_NAME, sizeof name, name, NULL);
    if (err != CL_SUCCESS) {
        return fail("clGetPlatformInfo(NAME)", err);
    }

    printf("ok main=%llu platforms=%llu devices=%llu context=%llu rss_kb=%ld hwm_kb=%ld "
           "threads=%ld nplatforms=%u name=%s\n",
           t_main, t_platforms, t_devices, t_context, rss_kb, hwm_kb, threads,
           (unsigned)num_platforms, name);
    fflush(stdout);

    err = clReleaseContext(context);
    if (err != CL_SUCCESS) {
        return fail("clReleaseContext", err);
    }
    return EXIT_SUCCESS;
}
