/*
 * usm_samples: cl_intel_unified_shared_memory on usmcl, in the style of the
 * classic USM samples.
 *
 *   1. host, device and shared "hello world": a kernel writes a string into
 *      each kind of allocation; the host prints it (device memory is copied
 *      to the host with clEnqueueMemcpyINTEL first);
 *   2. linked lists: the host builds a list in host memory and one in shared
 *      memory, nodes spread over several allocations, and a kernel walks
 *      each (it reaches the nodes indirectly: CL_KERNEL_EXEC_INFO_USM_PTRS_INTEL
 *      for one list, CL_KERNEL_EXEC_INFO_INDIRECT_*_ACCESS_INTEL for the other);
 *      a kernel links a list in device memory and another walks it;
 *   3. clGetMemAllocInfoINTEL on an interior pointer, clEnqueueMemFillINTEL
 *      and clMemBlockingFreeINTEL.
 *
 * The extension's functions are looked up with
 * clGetExtensionFunctionAddressForPlatform, as applications do. Every result
 * is checked against the host's own computation; the program exits with
 * status 1 on any mismatch or error.
 *
 *   OCL_ICD_VENDORS=$PWD/build/driver/icd ./build/examples/usm_samples
 */

#include <CL/cl.h>
#include <CL/cl_ext.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CHECK(call)                                                                                \
    do {                                                                                           \
        cl_int check_status_ = (call);                                                             \
        if (check_status_ != CL_SUCCESS) {                                                         \
            fprintf(stderr, "%s:%d: %s failed with %d\n", __FILE__, __LINE__, #call,               \
                    check_status_);                                                                \
            exit(1);                                                                               \
        }                                                                                          \
    } while (0)

static void expect(int condition, const char* what) {
    if (!condition) {
        fprintf(stderr, "usm_samples: wrong result: %s\n", what);
        exit(1);
    }
}

static clHostMemAllocINTEL_fn host_alloc;
static clDeviceMemAllocINTEL_fn device_alloc;
static clSharedMemAllocINTEL_fn shared_alloc;
static clMemBlockingFreeINTEL_fn blocking_free;
static clGetMemAllocInfoINTEL_fn alloc_info;
static clSetKernelArgMemPointerINTEL_fn set_arg_pointer;
static clEnqueueMemcpyINTEL_fn usm_memcpy;
static clEnqueueMemFillINTEL_fn usm_fill;

/* The address of an extension function, copied into a function pointer
 * (ISO C has no cast from an object pointer to a function pointer). */
static void lookup(cl_platform_id platform, const char* name, void* function, size_t size) {
    void* address = clGetExtensionFunctionAddressForPlatform(platform, name);
    if (!address || size != sizeof address) {
        fprintf(stderr, "usm_samples: %s not found\n", name);
        exit(1);
    }
    memcpy(function, &address, size);
}

#define LOAD(platform, variable, name) lookup(platform, name, &variable, sizeof variable)

static void load_functions(cl_platform_id platform) {
    LOAD(platform, host_alloc, "clHostMemAllocINTEL");
    LOAD(platform, device_alloc, "clDeviceMemAllocINTEL");
    LOAD(platform, shared_alloc, "clSharedMemAllocINTEL");
    LOAD(platform, blocking_free, "clMemBlockingFreeINTEL");
    LOAD(platform, alloc_info, "clGetMemAllocInfoINTEL");
    LOAD(platform, set_arg_pointer, "clSetKernelArgMemPointerINTEL");
    LOAD(platform, usm_memcpy, "clEnqueueMemcpyINTEL");
    LOAD(platform, usm_fill, "clEnqueueMemFillINTEL");
}

static const char* source = "kernel void hello(global char* out) {\n"
                            "    constant char text[] = \"Hello, USM!\";\n"
                            "    size_t i = get_global_id(0);\n"
                            "    out[i] = text[i];\n"
                            "}\n"
                            "typedef struct Node { global struct Node* next; int value; } Node;\n"
                            "kernel void walk(global Node* head, global int* sum) {\n"
                            "    int total = 0;\n"
                            "    for (global Node* node = head; node; node = node->next)\n"
                            "        total += node->value;\n"
                            "    *sum = total;\n"
                            "}\n"
                            "kernel void link(global Node* nodes, int count) {\n"
                            "    int i = get_global_id(0);\n"
                            "    nodes[i].value = i * i;\n"
                            "    nodes[i].next = i + 1 < count ? &nodes[i + 1] : 0;\n"
                            "}\n";

/* A node as the kernels see it (pointers are 64-bit on both sides). */
typedef struct Node {
    struct Node* next;
    cl_int value;
} Node;

enum { hello_size = 12, list_length = 6, device_list_length = 1000 };

static cl_context context;
static cl_device_id device;
static cl_command_queue queue;

static cl_kernel make_kernel(cl_program program, const char* name) {
    cl_int status;
    cl_kernel kernel = clCreateKernel(program, name, &status);
    CHECK(status);
    return kernel;
}

static void run(cl_kernel kernel, size_t global_size) {
    CHECK(clEnqueueNDRangeKernel(queue, kernel, 1, NULL, &global_size, NULL, 0, NULL, NULL));
    CHECK(clFinish(queue));
}

static void hello_world(cl_kernel hello) {
    cl_int status;
    char* host = host_alloc(context, NULL, hello_size, 0, &status);
    CHECK(status);
    char* shared = shared_alloc(context, device, NULL, hello_size, 0, &status);
    CHECK(status);
    char* on_device = device_alloc(context, device, NULL, hello_size, 0, &status);
    CHECK(status);
    char from_device[hello_size];

    CHECK(set_arg_pointer(hello, 0, host));
    run(hello, hello_size);
    printf("host allocation:   %s\n", host);
    CHECK(set_arg_pointer(hello, 0, shared));
    run(hello, hello_size);
    printf("shared allocation: %s\n", shared);
    CHECK(set_arg_pointer(hello, 0, on_device));
    run(hello, hello_size);
    CHECK(usm_memcpy(queue, CL_TRUE, from_device, on_device, hello_size, 0, NULL, NULL));
    printf("device allocation: %s\n", from_device);
    expect(strcmp(host, "Hello, USM!") == 0 && strcmp(shared, host) == 0 &&
               strcmp(from_device, host) == 0,
           "hello world");

    CHECK(blocking_free(context, host));
    CHECK(blocking_free(context, shared));
    CHECK(blocking_free(context, on_device));
}

/* A list of list_length nodes, one allocation per node; returns its sum. */
static int build_list(Node** head, void** nodes, int shared) {
    int sum = 0;
    *head = NULL;
    for (int i = list_length - 1; i >= 0; --i) {
        cl_int status;
        Node* node = shared ? shared_alloc(context, NULL, NULL, sizeof(Node), 0, &status)
                            : host_alloc(context, NULL, sizeof(Node), 0, &status);
        CHECK(status);
        node->value = 10 * (i + 1);
        node->next = *head;
        *head = node;
        nodes[i] = node;
        sum += node->value;
    }
    return sum;
}

static void linked_lists(cl_kernel walk, cl_kernel link) {
    cl_int status;
    cl_int* sum = shared_alloc(context, device, NULL, sizeof(cl_int), 0, &status);
    CHECK(status);
    void* nodes[list_length];
    Node* head;

    /* Host memory: the kernel gets the head; the other nodes are named. */
    int expected = build_list(&head, nodes, 0);
    CHECK(set_arg_pointer(walk, 0, head));
    CHECK(set_arg_pointer(walk, 1, sum));
    CHECK(clSetKernelExecInfo(walk, CL_KERNEL_EXEC_INFO_USM_PTRS_INTEL, sizeof nodes, nodes));
    run(walk, 1);
    printf("linked list in host memory:   sum %d (expected %d)\n", *sum, expected);
    expect(*sum == expected, "host list");
    for (int i = 0; i < list_length; ++i)
        CHECK(blocking_free(context, nodes[i]));

    /* Shared memory: the kernel may reach any shared allocation. */
    const cl_bool yes = CL_TRUE;
    expected = build_list(&head, nodes, 1);
    CHECK(clSetKernelExecInfo(walk, CL_KERNEL_EXEC_INFO_INDIRECT_SHARED_ACCESS_INTEL, sizeof yes,
                              &yes));
    CHECK(set_arg_pointer(walk, 0, head));
    run(walk, 1);
    printf("linked list in shared memory: sum %d (expected %d)\n", *sum, expected);
    expect(*sum == expected, "shared list");
    for (int i = 0; i < list_length; ++i)
        CHECK(blocking_free(context, nodes[i]));

    /* Device memory: one kernel links the nodes, another walks them. */
    Node* device_nodes =
        device_alloc(context, device, NULL, device_list_length * sizeof(Node), 0, &status);
    CHECK(status);
    const cl_int count = device_list_length;
    CHECK(set_arg_pointer(link, 0, device_nodes));
    CHECK(clSetKernelArg(link, 1, sizeof count, &count));
    run(link, device_list_length);
    CHECK(set_arg_pointer(walk, 0, device_nodes));
    run(walk, 1);
    int device_expected = 0;
    for (int i = 0; i < device_list_length; ++i)
        device_expected += i * i;
    printf("linked list in device memory: sum %d (expected %d)\n", *sum, device_expected);
    expect(*sum == device_expected, "device list");

    /* An interior pointer leads back to its allocation. */
    void* base = NULL;
    size_t size = 0;
    cl_unified_shared_memory_type_intel type = 0;
    Node* middle = device_nodes + device_list_length / 2;
    CHECK(alloc_info(context, middle, CL_MEM_ALLOC_BASE_PTR_INTEL, sizeof base, &base, NULL));
    CHECK(alloc_info(context, middle, CL_MEM_ALLOC_SIZE_INTEL, sizeof size, &size, NULL));
    CHECK(alloc_info(context, middle, CL_MEM_ALLOC_TYPE_INTEL, sizeof type, &type, NULL));
    printf("an interior pointer of the device list: base %p, %zu bytes, %s memory\n", base, size,
           type == CL_MEM_TYPE_DEVICE_INTEL ? "device" : "other");
    expect(base == device_nodes && size == device_list_length * sizeof(Node) &&
               type == CL_MEM_TYPE_DEVICE_INTEL,
           "clGetMemAllocInfoINTEL");

    /* Fill with a pattern, wait for it through its event, check. */
    const cl_int pattern = 0x5a5a5a5a;
    cl_event filled;
    CHECK(usm_fill(queue, sum, &pattern, sizeof pattern, sizeof(cl_int), 0, NULL, &filled));
    CHECK(clWaitForEvents(1, &filled));
    CHECK(clReleaseEvent(filled));
    expect(*sum == pattern, "clEnqueueMemFillINTEL");

    CHECK(blocking_free(context, device_nodes));
    CHECK(blocking_free(context, sum));
}

int main(void) {
    cl_platform_id platforms[16];
    cl_uint count = 0;
    CHECK(clGetPlatformIDs(16, platforms, &count));
    cl_platform_id platform = NULL;
    for (cl_uint i = 0; i < count && !platform; ++i) {
        char name[256] = "";
        CHECK(clGetPlatformInfo(platforms[i], CL_PLATFORM_NAME, sizeof name, name, NULL));
        if (strstr(name, "usmcl"))
            platform = platforms[i];
    }
    if (!platform) {
        fprintf(stderr, "usm_samples: no usmcl platform (is OCL_ICD_VENDORS set?)\n");
        return 1;
    }
    load_functions(platform);
    CHECK(clGetDeviceIDs(platform, CL_DEVICE_TYPE_CPU, 1, &device, NULL));
    cl_int status;
    context = clCreateContext(NULL, 1, &device, NULL, NULL, &status);
    CHECK(status);
    queue = clCreateCommandQueueWithProperties(context, device, NULL, &status);
    CHECK(status);
    cl_program program = clCreateProgramWithSource(context, 1, &source, NULL, &status);
    CHECK(status);
    CHECK(clBuildProgram(program, 1, &device, "", NULL, NULL));
    cl_kernel hello = make_kernel(program, "hello");
    cl_kernel walk = make_kernel(program, "walk");
    cl_kernel link = make_kernel(program, "link");

    hello_world(hello);
    linked_lists(walk, link);

    CHECK(clReleaseKernel(hello));
    CHECK(clReleaseKernel(walk));
    CHECK(clReleaseKernel(link));
    CHECK(clReleaseProgram(program));
    CHECK(clReleaseCommandQueue(queue));
    CHECK(clReleaseContext(context));
    printf("usm_samples: all results match\n");
    return 0;
}
