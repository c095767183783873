// clGetDeviceInfo on the root CPU device: every OpenCL 3.0 query answers
// with the right size, and the answers agree with each other, with the host
// and with the full profile's minimums.
#include "cl_test.hpp"
#include "device_queries.hpp"

#include <algorithm>
#include <cstdio>
#include <set>
#include <unistd.h>

using namespace cl_test;

namespace {

constexpr cl_ulong kib = 1024;
constexpr cl_ulong mib = 1024 * kib;

bool has(const std::vector<std::string>& list, const std::string& name) {
    return std::find(list.begin(), list.end(), name) != list.end();
}

bool is_power_of_two(cl_ulong value) {
    return value != 0 && (value & (value - 1)) == 0;
}

std::vector<std::string> device_extensions(cl_device_id id) {
    return split_words(device_info_string(id, CL_DEVICE_EXTENSIONS));
}

std::vector<std::string> opencl_c_features(cl_device_id id) {
    return names_of(device_info_array<cl_name_version>(id, CL_DEVICE_OPENCL_C_FEATURES));
}

// "v<year>-<month>-<day>-<patch>", e.g. "v2021-02-01-00".
bool is_conformance_version(const std::string& text) {
    const std::string shape = "v####-##-##-##";
    if (text.size() != shape.size())
        return false;
    for (size_t i = 0; i < shape.size(); ++i) {
        const bool digit = text[i] >= '0' && text[i] <= '9';
        if (shape[i] == '#' ? !digit : text[i] != shape[i])
            return false;
    }
    return true;
}

bool is_full_profile(cl_device_id id) {
    return device_info_string(id, CL_DEVICE_PROFILE) == "FULL_PROFILE";
}

} // namespace

TEST_CASE("every OpenCL 3.0 device query answers with the size of its type", "[device_info]") {
    check_every_device_query(device());
}

TEST_CASE("clGetDeviceInfo rejects unknown queries", "[device_info]") {
    cl_device_id id = device();
    unsigned char buffer[512] = {};
    size_t size = 0;
    for (cl_device_info param :
         {cl_device_info{0}, cl_device_info{0x0fff}, cl_device_info{CL_PLATFORM_NAME},
          cl_device_info{CL_CONTEXT_DEVICES}, cl_device_info{0x10ff}, cl_device_info{0x7fffffff}}) {
        INFO("param 0x" << std::hex << param);
        CHECK_CL(clGetDeviceInfo(id, param, sizeof buffer, buffer, &size), CL_INVALID_VALUE);
        CHECK_CL(clGetDeviceInfo(id, param, 0, nullptr, &size), CL_INVALID_VALUE);
    }
}

TEST_CASE("clGetDeviceInfo rejects handles that are not a device", "[device_info]") {
    const ContextPtr context = make_context({device()});
    cl_uint units = 0;
    CHECK_CL(clGetDeviceInfo(reinterpret_cast<cl_device_id>(context.get()),
                             CL_DEVICE_MAX_COMPUTE_UNITS, sizeof units, &units, nullptr),
             CL_INVALID_DEVICE);
    CHECK_CL(clGetDeviceInfo(reinterpret_cast<cl_device_id>(platform()),
                             CL_DEVICE_MAX_COMPUTE_UNITS, sizeof units, &units, nullptr),
             CL_INVALID_DEVICE);
    CHECK_CL(clGetDeviceInfo(nullptr, CL_DEVICE_MAX_COMPUTE_UNITS, sizeof units, &units, nullptr),
             CL_INVALID_DEVICE);
    for (unsigned char fill : {0x00, 0x5a, 0xff}) {
        FakeObject garbage(device(), fill);
        CHECK_CL(clGetDeviceInfo(garbage.as<cl_device_id>(), CL_DEVICE_MAX_COMPUTE_UNITS,
                                 sizeof units, &units, nullptr),
                 CL_INVALID_DEVICE);
    }
    CHECK(units == 0);
}

TEST_CASE("device identity: type, platform, names and versions", "[device_info]") {
    cl_device_id id = device();
    const auto type = device_info<cl_device_type>(id, CL_DEVICE_TYPE);
    CHECK((type & CL_DEVICE_TYPE_CPU) != 0);
    CHECK((type & (CL_DEVICE_TYPE_GPU | CL_DEVICE_TYPE_ACCELERATOR | CL_DEVICE_TYPE_CUSTOM)) == 0);
    CHECK(device_info<cl_platform_id>(id, CL_DEVICE_PLATFORM) == platform());
    CHECK_FALSE(device_info_string(id, CL_DEVICE_NAME).empty());
    CHECK_FALSE(device_info_string(id, CL_DEVICE_VENDOR).empty());
    CHECK_FALSE(device_info_string(id, CL_DRIVER_VERSION).empty());
    CHECK(device_info_string(id, CL_DEVICE_PROFILE) ==
          platform_info_string(platform(), CL_PLATFORM_PROFILE));
    CHECK(device_info<cl_bool>(id, CL_DEVICE_AVAILABLE) == CL_TRUE);

    // "OpenCL<space><major.minor><space><vendor-specific information>"
    const std::string version = device_info_string(id, CL_DEVICE_VERSION);
    unsigned major = 0;
    unsigned minor = 0;
    char space = 0;
    REQUIRE(std::sscanf(version.c_str(), "OpenCL %u.%u%c", &major, &minor, &space) == 3);
    CHECK(space == ' ');
    CHECK(device_info<cl_version>(id, CL_DEVICE_NUMERIC_VERSION) ==
          CL_MAKE_VERSION(major, minor, 0));
    CHECK(major == 3);
    CHECK(minor == 0);

    // The latest conformance version: "v<year>-<month>-<day>-<patch>".
    const std::string conformance =
        device_info_string(id, CL_DEVICE_LATEST_CONFORMANCE_VERSION_PASSED);
    CHECK(is_conformance_version(conformance));
}

TEST_CASE("OpenCL C versions agree with each other", "[device_info]") {
    cl_device_id id = device();
    // "OpenCL<space>C<space><major.minor><space><vendor-specific information>"
    const std::string text = device_info_string(id, CL_DEVICE_OPENCL_C_VERSION);
    unsigned major = 0;
    unsigned minor = 0;
    REQUIRE(std::sscanf(text.c_str(), "OpenCL C %u.%u", &major, &minor) == 2);
    const auto numeric = device_info<cl_version>(id, CL_DEVICE_OPENCL_C_NUMERIC_VERSION_KHR);
    CHECK(numeric == CL_MAKE_VERSION(major, minor, 0));

    const auto all = device_info_array<cl_name_version>(id, CL_DEVICE_OPENCL_C_ALL_VERSIONS);
    std::set<cl_version> versions;
    for (const auto& entry : all) {
        CHECK(std::string(entry.name) == "OpenCL C");
        versions.insert(entry.version);
    }
    CHECK(versions.size() == all.size());
    // An OpenCL 3.0 device supports OpenCL C 1.2 and all versions before it.
    CHECK(versions.count(CL_MAKE_VERSION(1, 0, 0)) == 1);
    CHECK(versions.count(CL_MAKE_VERSION(1, 1, 0)) == 1);
    CHECK(versions.count(CL_MAKE_VERSION(1, 2, 0)) == 1);
    CHECK(versions.count(numeric) == 1);
}

TEST_CASE("device extensions: the string and the versioned list agree", "[device_info]") {
    cl_device_id id = device();
    const auto words = device_extensions(id);
    const auto with_version =
        device_info_array<cl_name_version>(id, CL_DEVICE_EXTENSIONS_WITH_VERSION);
    const auto names = names_of(with_version);
    CHECK(std::set<std::string>(words.begin(), words.end()).size() == words.size());
    CHECK(std::set<std::string>(names.begin(), names.end()) ==
          std::set<std::string>(words.begin(), words.end()));
    CHECK(names.size() == words.size());
    for (const auto& entry : with_version) {
        INFO(entry.name);
        CHECK(entry.version != 0);
    }
    CHECK(has(words, "cl_khr_extended_versioning"));
    // Every query this device answers for cl_khr_device_uuid needs the name.
    CHECK(has(words, "cl_khr_device_uuid"));
}

TEST_CASE("platform extensions are device extensions, except cl_khr_icd", "[device_info]") {
    const auto device_words = device_extensions(device());
    for (const auto& name : split_words(platform_info_string(platform(), CL_PLATFORM_EXTENSIONS))) {
        INFO(name);
        if (name != "cl_khr_icd")
            CHECK(has(device_words, name));
    }
}

// OpenCL 3.0, CL_PLATFORM_EXTENSIONS: "Each extension that is supported by
// all devices associated with this platform must be reported here."
TEST_CASE("extensions of every device are platform extensions", "[device_info]") {
    const auto platform_words =
        split_words(platform_info_string(platform(), CL_PLATFORM_EXTENSIONS));
    for (const auto& name : device_extensions(device())) {
        INFO(name);
        CHECK(has(platform_words, name));
    }
}

TEST_CASE("compute units are the CPUs this process may use", "[device_info]") {
    cl_device_id id = device();
    const auto units = device_info<cl_uint>(id, CL_DEVICE_MAX_COMPUTE_UNITS);
    CHECK(units == allowed_cpu_count());
}

TEST_CASE("work-group and work-item limits", "[device_info]") {
    cl_device_id id = device();
    const auto dimensions = device_info<cl_uint>(id, CL_DEVICE_MAX_WORK_ITEM_DIMENSIONS);
    CHECK(dimensions >= 3);
    const auto sizes = device_info_array<size_t>(id, CL_DEVICE_MAX_WORK_ITEM_SIZES);
    CHECK(sizes.size() == dimensions);
    const auto group = device_info<size_t>(id, CL_DEVICE_MAX_WORK_GROUP_SIZE);
    CHECK(group >= 1);
    for (size_t size : sizes) {
        CHECK(size >= 1);
        CHECK(size <= group);
    }
    const auto multiple = device_info<size_t>(id, CL_DEVICE_PREFERRED_WORK_GROUP_SIZE_MULTIPLE);
    CHECK(multiple >= 1);
    CHECK(multiple <= group);
    CHECK(device_info<size_t>(id, CL_DEVICE_MAX_PARAMETER_SIZE) >= 1024);
    CHECK((device_info<cl_device_exec_capabilities>(id, CL_DEVICE_EXECUTION_CAPABILITIES) &
           CL_EXEC_KERNEL) != 0);
}

TEST_CASE("memory sizes meet the full profile's minimums", "[device_info]") {
    cl_device_id id = device();
    const auto global = device_info<cl_ulong>(id, CL_DEVICE_GLOBAL_MEM_SIZE);
    const auto max_alloc = device_info<cl_ulong>(id, CL_DEVICE_MAX_MEM_ALLOC_SIZE);
    CHECK(global > 0);
    const cl_ulong physical = static_cast<cl_ulong>(sysconf(_SC_PHYS_PAGES)) *
                              static_cast<cl_ulong>(sysconf(_SC_PAGESIZE));
    CHECK(global <= physical);
    // At least max(1/4 of the global memory, 128 MiB), never above the global memory.
    CHECK(max_alloc >= std::max(global / 4, std::min(global, 128 * mib)));
    CHECK(max_alloc <= global);

    const auto constant = device_info<cl_ulong>(id, CL_DEVICE_MAX_CONSTANT_BUFFER_SIZE);
    CHECK(constant >= 64 * kib);
    CHECK(constant <= max_alloc);
    CHECK(device_info<cl_uint>(id, CL_DEVICE_MAX_CONSTANT_ARGS) >= 8);

    const auto local_type = device_info<cl_device_local_mem_type>(id, CL_DEVICE_LOCAL_MEM_TYPE);
    CHECK((local_type == CL_LOCAL || local_type == CL_GLOBAL));
    CHECK(device_info<cl_ulong>(id, CL_DEVICE_LOCAL_MEM_SIZE) >= 32 * kib);

    // Alignment: at least the largest built-in type (long16, 128 bytes), in bits.
    const auto base_align = device_info<cl_uint>(id, CL_DEVICE_MEM_BASE_ADDR_ALIGN);
    CHECK(base_align >= 128 * 8);
    CHECK(is_power_of_two(base_align));
    CHECK(device_info<cl_uint>(id, CL_DEVICE_MIN_DATA_TYPE_ALIGN_SIZE) >= 1);

    CHECK(device_info<size_t>(id, CL_DEVICE_PRINTF_BUFFER_SIZE) >= 1 * mib);
    // Unified with the host's memory on the CPU device, not on a
    // discrete-memory device (USMCL_DEVICES=discrete, named so).
    const bool discrete =
        device_info_string(id, CL_DEVICE_NAME).find("discrete-memory") != std::string::npos;
    CHECK(device_info<cl_bool>(id, CL_DEVICE_HOST_UNIFIED_MEMORY) ==
          (discrete ? CL_FALSE : CL_TRUE));
    CHECK(device_info<cl_uint>(id, CL_DEVICE_ADDRESS_BITS) == sizeof(void*) * 8);
    CHECK(device_info<cl_bool>(id, CL_DEVICE_ENDIAN_LITTLE) ==
          (__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__ ? CL_TRUE : CL_FALSE));
    CHECK(device_info<cl_bool>(id, CL_DEVICE_ERROR_CORRECTION_SUPPORT) == CL_FALSE);
}

TEST_CASE("global memory cache", "[device_info]") {
    cl_device_id id = device();
    const auto type = device_info<cl_device_mem_cache_type>(id, CL_DEVICE_GLOBAL_MEM_CACHE_TYPE);
    REQUIRE((type == CL_NONE || type == CL_READ_ONLY_CACHE || type == CL_READ_WRITE_CACHE));
    const auto line = device_info<cl_uint>(id, CL_DEVICE_GLOBAL_MEM_CACHELINE_SIZE);
    const auto size = device_info<cl_ulong>(id, CL_DEVICE_GLOBAL_MEM_CACHE_SIZE);
    if (type != CL_NONE) {
        CHECK(is_power_of_two(line));
        CHECK(size >= line);
    }
}

TEST_CASE("vector widths follow the supported types", "[device_info]") {
    cl_device_id id = device();
    const auto extensions = device_extensions(id);
    const std::pair<cl_device_info, cl_device_info> always[] = {
        {CL_DEVICE_PREFERRED_VECTOR_WIDTH_CHAR, CL_DEVICE_NATIVE_VECTOR_WIDTH_CHAR},
        {CL_DEVICE_PREFERRED_VECTOR_WIDTH_SHORT, CL_DEVICE_NATIVE_VECTOR_WIDTH_SHORT},
        {CL_DEVICE_PREFERRED_VECTOR_WIDTH_INT, CL_DEVICE_NATIVE_VECTOR_WIDTH_INT},
        {CL_DEVICE_PREFERRED_VECTOR_WIDTH_LONG, CL_DEVICE_NATIVE_VECTOR_WIDTH_LONG},
        {CL_DEVICE_PREFERRED_VECTOR_WIDTH_FLOAT, CL_DEVICE_NATIVE_VECTOR_WIDTH_FLOAT},
    };
    for (const auto& [preferred, native] : always) {
        INFO("params 0x" << std::hex << preferred << " 0x" << native);
        const auto p = device_info<cl_uint>(id, preferred);
        const auto n = device_info<cl_uint>(id, native);
        CHECK(p >= 1);
        CHECK(n >= 1);
        CHECK(n <= 64);
        CHECK(is_power_of_two(p));
        CHECK(is_power_of_two(n));
    }
    const bool fp64 = has(extensions, "cl_khr_fp64");
    CHECK((device_info<cl_uint>(id, CL_DEVICE_PREFERRED_VECTOR_WIDTH_DOUBLE) != 0) == fp64);
    CHECK((device_info<cl_uint>(id, CL_DEVICE_NATIVE_VECTOR_WIDTH_DOUBLE) != 0) == fp64);
    const bool fp16 = has(extensions, "cl_khr_fp16");
    CHECK((device_info<cl_uint>(id, CL_DEVICE_PREFERRED_VECTOR_WIDTH_HALF) != 0) == fp16);
    CHECK((device_info<cl_uint>(id, CL_DEVICE_NATIVE_VECTOR_WIDTH_HALF) != 0) == fp16);
}

TEST_CASE("floating-point capabilities", "[device_info]") {
    cl_device_id id = device();
    const auto extensions = device_extensions(id);
    // The full profile's minimum for single precision.
    const auto single = device_info<cl_device_fp_config>(id, CL_DEVICE_SINGLE_FP_CONFIG);
    CHECK((single & (CL_FP_ROUND_TO_NEAREST | CL_FP_INF_NAN)) ==
          (CL_FP_ROUND_TO_NEAREST | CL_FP_INF_NAN));
    const auto double_config = device_info<cl_device_fp_config>(id, CL_DEVICE_DOUBLE_FP_CONFIG);
    if (has(extensions, "cl_khr_fp64")) {
        constexpr cl_device_fp_config minimum = CL_FP_FMA | CL_FP_ROUND_TO_NEAREST |
                                                CL_FP_ROUND_TO_ZERO | CL_FP_ROUND_TO_INF |
                                                CL_FP_INF_NAN | CL_FP_DENORM;
        CHECK((double_config & minimum) == minimum);
    } else {
        CHECK(double_config == 0);
    }
    const auto half_config = device_info<cl_device_fp_config>(id, CL_DEVICE_HALF_FP_CONFIG);
    if (has(extensions, "cl_khr_fp16")) {
        // cl_khr_fp16's minimum is round to zero or to nearest, with
        // infinities and NaNs; usmcl rounds to nearest and keeps denormals.
        constexpr cl_device_fp_config usmcl_half =
            CL_FP_ROUND_TO_NEAREST | CL_FP_INF_NAN | CL_FP_DENORM | CL_FP_FMA;
        CHECK(half_config == usmcl_half);
    } else {
        CHECK(half_config == 0);
    }
}

TEST_CASE("image limits follow CL_DEVICE_IMAGE_SUPPORT", "[device_info]") {
    cl_device_id id = device();
    if (device_info<cl_bool>(id, CL_DEVICE_IMAGE_SUPPORT) == CL_TRUE) {
        CHECK(device_info<cl_uint>(id, CL_DEVICE_MAX_READ_IMAGE_ARGS) >= 128);
        CHECK(device_info<cl_uint>(id, CL_DEVICE_MAX_WRITE_IMAGE_ARGS) >= 64);
        CHECK(device_info<size_t>(id, CL_DEVICE_IMAGE2D_MAX_WIDTH) >= 16384);
        CHECK(device_info<size_t>(id, CL_DEVICE_IMAGE2D_MAX_HEIGHT) >= 16384);
        CHECK(device_info<size_t>(id, CL_DEVICE_IMAGE3D_MAX_WIDTH) >= 2048);
        CHECK(device_info<size_t>(id, CL_DEVICE_IMAGE3D_MAX_HEIGHT) >= 2048);
        CHECK(device_info<size_t>(id, CL_DEVICE_IMAGE3D_MAX_DEPTH) >= 2048);
        CHECK(device_info<size_t>(id, CL_DEVICE_IMAGE_MAX_BUFFER_SIZE) >= 65536);
        CHECK(device_info<size_t>(id, CL_DEVICE_IMAGE_MAX_ARRAY_SIZE) >= 2048);
        CHECK(device_info<cl_uint>(id, CL_DEVICE_MAX_SAMPLERS) >= 16);
    } else {
        // Without images the pitch and base address alignments must be 0.
        CHECK(device_info<cl_uint>(id, CL_DEVICE_IMAGE_PITCH_ALIGNMENT) == 0);
        CHECK(device_info<cl_uint>(id, CL_DEVICE_IMAGE_BASE_ADDRESS_ALIGNMENT) == 0);
        CHECK(device_info<cl_uint>(id, CL_DEVICE_MAX_READ_WRITE_IMAGE_ARGS) == 0);
        CHECK_FALSE(has(opencl_c_features(id), "__opencl_c_images"));
    }
}

TEST_CASE("optional OpenCL 3.0 features agree with their queries", "[device_info]") {
    cl_device_id id = device();
    const auto features = opencl_c_features(id);
    const bool compiler = device_info<cl_bool>(id, CL_DEVICE_COMPILER_AVAILABLE) == CL_TRUE;
    // A feature listed must be backed by its query; with a compiler, the
    // query's capability must be listed (without one the list may be empty).
    auto agree = [&](const char* feature, bool capability) {
        INFO(feature);
        if (has(features, feature))
            CHECK(capability);
        if (compiler)
            CHECK(has(features, feature) == capability);
    };

    const auto memory =
        device_info<cl_device_atomic_capabilities>(id, CL_DEVICE_ATOMIC_MEMORY_CAPABILITIES);
    const auto fence =
        device_info<cl_device_atomic_capabilities>(id, CL_DEVICE_ATOMIC_FENCE_CAPABILITIES);
    // The minimum capabilities of OpenCL 3.0.
    CHECK((memory & (CL_DEVICE_ATOMIC_ORDER_RELAXED | CL_DEVICE_ATOMIC_SCOPE_WORK_GROUP)) ==
          (CL_DEVICE_ATOMIC_ORDER_RELAXED | CL_DEVICE_ATOMIC_SCOPE_WORK_GROUP));
    constexpr cl_device_atomic_capabilities fence_minimum = CL_DEVICE_ATOMIC_ORDER_RELAXED |
                                                            CL_DEVICE_ATOMIC_ORDER_ACQ_REL |
                                                            CL_DEVICE_ATOMIC_SCOPE_WORK_GROUP;
    CHECK((fence & fence_minimum) == fence_minimum);
    agree("__opencl_c_atomic_order_acq_rel", (memory & CL_DEVICE_ATOMIC_ORDER_ACQ_REL) != 0);
    agree("__opencl_c_atomic_order_seq_cst", (memory & CL_DEVICE_ATOMIC_ORDER_SEQ_CST) != 0);
    agree("__opencl_c_atomic_scope_device", (memory & CL_DEVICE_ATOMIC_SCOPE_DEVICE) != 0);
    agree("__opencl_c_atomic_scope_all_devices",
          (memory & CL_DEVICE_ATOMIC_SCOPE_ALL_DEVICES) != 0);

    const bool generic = device_info<cl_bool>(id, CL_DEVICE_GENERIC_ADDRESS_SPACE_SUPPORT);
    agree("__opencl_c_generic_address_space", generic);
    agree("__opencl_c_work_group_collective_functions",
          device_info<cl_bool>(id, CL_DEVICE_WORK_GROUP_COLLECTIVE_FUNCTIONS_SUPPORT));
    agree("__opencl_c_images", device_info<cl_bool>(id, CL_DEVICE_IMAGE_SUPPORT));
    agree("__opencl_c_read_write_images",
          device_info<cl_uint>(id, CL_DEVICE_MAX_READ_WRITE_IMAGE_ARGS) != 0);
    agree("__opencl_c_fp64", device_info<cl_device_fp_config>(id, CL_DEVICE_DOUBLE_FP_CONFIG) != 0);
    agree("__opencl_c_subgroups", device_info<cl_uint>(id, CL_DEVICE_MAX_NUM_SUB_GROUPS) != 0);

    // Program scope global variables.
    const auto global_variable = device_info<size_t>(id, CL_DEVICE_MAX_GLOBAL_VARIABLE_SIZE);
    agree("__opencl_c_program_scope_global_variables", global_variable != 0);
    if (global_variable == 0)
        CHECK(device_info<size_t>(id, CL_DEVICE_GLOBAL_VARIABLE_PREFERRED_TOTAL_SIZE) == 0);
    else
        CHECK(global_variable >= 64 * kib);

    // Pipes.
    const bool pipes = device_info<cl_bool>(id, CL_DEVICE_PIPE_SUPPORT);
    agree("__opencl_c_pipes", pipes);
    if (!pipes) {
        CHECK(device_info<cl_uint>(id, CL_DEVICE_MAX_PIPE_ARGS) == 0);
        CHECK(device_info<cl_uint>(id, CL_DEVICE_PIPE_MAX_ACTIVE_RESERVATIONS) == 0);
        CHECK(device_info<cl_uint>(id, CL_DEVICE_PIPE_MAX_PACKET_SIZE) == 0);
    }

    // Device-side enqueue.
    const auto enqueue = device_info<cl_device_device_enqueue_capabilities>(
        id, CL_DEVICE_DEVICE_ENQUEUE_CAPABILITIES);
    agree("__opencl_c_device_enqueue", enqueue != 0);
    if (enqueue == 0) {
        CHECK(device_info<cl_command_queue_properties>(id, CL_DEVICE_QUEUE_ON_DEVICE_PROPERTIES) ==
              0);
        CHECK(device_info<cl_uint>(id, CL_DEVICE_QUEUE_ON_DEVICE_PREFERRED_SIZE) == 0);
        CHECK(device_info<cl_uint>(id, CL_DEVICE_QUEUE_ON_DEVICE_MAX_SIZE) == 0);
        CHECK(device_info<cl_uint>(id, CL_DEVICE_MAX_ON_DEVICE_QUEUES) == 0);
        CHECK(device_info<cl_uint>(id, CL_DEVICE_MAX_ON_DEVICE_EVENTS) == 0);
    }

    // Sub-groups.
    if (device_info<cl_uint>(id, CL_DEVICE_MAX_NUM_SUB_GROUPS) == 0)
        CHECK(device_info<cl_bool>(id, CL_DEVICE_SUB_GROUP_INDEPENDENT_FORWARD_PROGRESS) ==
              CL_FALSE);

    // SVM is optional in 3.0; coarse-grained buffers come first when present.
    const auto svm = device_info<cl_device_svm_capabilities>(id, CL_DEVICE_SVM_CAPABILITIES);
    if (svm != 0)
        CHECK((svm & CL_DEVICE_SVM_COARSE_GRAIN_BUFFER) != 0);
}

TEST_CASE("intermediate languages and built-in kernels", "[device_info]") {
    cl_device_id id = device();
    const auto ils = device_info_array<cl_name_version>(id, CL_DEVICE_ILS_WITH_VERSION);
    const std::string il_version = device_info_string(id, CL_DEVICE_IL_VERSION);
    CHECK(il_version.empty() == ils.empty());
    if (!has(device_extensions(id), "cl_khr_il_program"))
        CHECK(ils.empty());

    const std::string kernels = device_info_string(id, CL_DEVICE_BUILT_IN_KERNELS);
    const auto kernels_with_version =
        device_info_array<cl_name_version>(id, CL_DEVICE_BUILT_IN_KERNELS_WITH_VERSION);
    CHECK(kernels.empty() == kernels_with_version.empty());
}

TEST_CASE("queues, timers and interop", "[device_info]") {
    cl_device_id id = device();
    const auto on_host =
        device_info<cl_command_queue_properties>(id, CL_DEVICE_QUEUE_ON_HOST_PROPERTIES);
    CHECK((on_host & CL_QUEUE_PROFILING_ENABLE) != 0);
    CHECK(device_info<cl_command_queue_properties>(id, CL_DEVICE_QUEUE_PROPERTIES) == on_host);
    CHECK(device_info<size_t>(id, CL_DEVICE_PROFILING_TIMER_RESOLUTION) > 0);
    const auto sync = device_info<cl_bool>(id, CL_DEVICE_PREFERRED_INTEROP_USER_SYNC);
    CHECK((sync == CL_TRUE || sync == CL_FALSE));
}

TEST_CASE("the root device: no parent, no partition type, reference count 1", "[device_info]") {
    cl_device_id id = device();
    CHECK(device_info<cl_device_id>(id, CL_DEVICE_PARENT_DEVICE) == nullptr);
    const auto type = device_info_array<cl_device_partition_property>(id, CL_DEVICE_PARTITION_TYPE);
    CHECK((type.empty() || (type.size() == 1 && type[0] == 0)));
    CHECK(device_info<cl_uint>(id, CL_DEVICE_REFERENCE_COUNT) == 1);
}

TEST_CASE("partition capabilities are consistent", "[device_info]") {
    cl_device_id id = device();
    const auto units = device_info<cl_uint>(id, CL_DEVICE_MAX_COMPUTE_UNITS);
    const auto max_sub_devices = device_info<cl_uint>(id, CL_DEVICE_PARTITION_MAX_SUB_DEVICES);
    const auto schemes =
        device_info_array<cl_device_partition_property>(id, CL_DEVICE_PARTITION_PROPERTIES);
    const auto domains =
        device_info<cl_device_affinity_domain>(id, CL_DEVICE_PARTITION_AFFINITY_DOMAIN);
    CHECK(max_sub_devices <= units);
    REQUIRE_FALSE(schemes.empty());
    auto supports = [&](cl_device_partition_property scheme) {
        return std::find(schemes.begin(), schemes.end(), scheme) != schemes.end();
    };
    if (units > 1) {
        CHECK(max_sub_devices >= 2);
        CHECK(supports(CL_DEVICE_PARTITION_EQUALLY));
        CHECK(supports(CL_DEVICE_PARTITION_BY_COUNTS));
    }
    if (schemes.size() == 1 && schemes[0] == 0) {
        CHECK(max_sub_devices == 0);
        CHECK(domains == 0);
    }
    for (auto scheme : schemes) {
        INFO("scheme 0x" << std::hex << scheme);
        CHECK((scheme == CL_DEVICE_PARTITION_EQUALLY || scheme == CL_DEVICE_PARTITION_BY_COUNTS ||
               scheme == CL_DEVICE_PARTITION_BY_AFFINITY_DOMAIN || schemes.size() == 1));
    }
    constexpr cl_device_affinity_domain known =
        CL_DEVICE_AFFINITY_DOMAIN_NUMA | CL_DEVICE_AFFINITY_DOMAIN_L4_CACHE |
        CL_DEVICE_AFFINITY_DOMAIN_L3_CACHE | CL_DEVICE_AFFINITY_DOMAIN_L2_CACHE |
        CL_DEVICE_AFFINITY_DOMAIN_L1_CACHE | CL_DEVICE_AFFINITY_DOMAIN_NEXT_PARTITIONABLE;
    CHECK((domains & ~known) == 0);
    CHECK(supports(CL_DEVICE_PARTITION_BY_AFFINITY_DOMAIN) == (domains != 0));
    if (domains != 0)
        CHECK((domains & CL_DEVICE_AFFINITY_DOMAIN_NEXT_PARTITIONABLE) != 0);
}

TEST_CASE("cl_khr_device_uuid answers", "[device_info]") {
    cl_device_id id = device();
    const auto device_uuid = device_info_array<cl_uchar>(id, CL_DEVICE_UUID_KHR);
    const auto driver_uuid = device_info_array<cl_uchar>(id, CL_DRIVER_UUID_KHR);
    CHECK(device_uuid.size() == CL_UUID_SIZE_KHR);
    CHECK(driver_uuid.size() == CL_UUID_SIZE_KHR);
    auto nonzero = [](const std::vector<cl_uchar>& bytes) {
        return std::any_of(bytes.begin(), bytes.end(), [](cl_uchar b) { return b != 0; });
    };
    CHECK(nonzero(device_uuid));
    CHECK(nonzero(driver_uuid));
    CHECK(device_info_array<cl_uchar>(id, CL_DEVICE_LUID_KHR).size() == CL_LUID_SIZE_KHR);
    if (device_info<cl_bool>(id, CL_DEVICE_LUID_VALID_KHR) == CL_FALSE)
        CHECK(device_info<cl_uint>(id, CL_DEVICE_NODE_MASK_KHR) == 0);
}

// OpenCL 3.0, CL_DEVICE_COMPILER_AVAILABLE: "Is CL_FALSE if the
// implementation does not have a compiler available to compile the program
// source. [...] This can be CL_FALSE for the embedded platform profile only."
// The kernel compiler lands with a later issue; until then a FULL_PROFILE
// device without a compiler is a known deviation, reported here.
TEST_CASE("a full-profile device has a compiler and a linker", "[device_info][!mayfail]") {
    cl_device_id id = device();
    REQUIRE(is_full_profile(id));
    const auto compiler = device_info<cl_bool>(id, CL_DEVICE_COMPILER_AVAILABLE);
    const auto linker = device_info<cl_bool>(id, CL_DEVICE_LINKER_AVAILABLE);
    CHECK(compiler == CL_TRUE);
    CHECK(linker == CL_TRUE);
    // OpenCL C 3.0 on a full-profile device requires __opencl_c_int64.
    const auto all = device_info_array<cl_name_version>(id, CL_DEVICE_OPENCL_C_ALL_VERSIONS);
    const bool opencl_c_3 = std::any_of(all.begin(), all.end(), [](const cl_name_version& entry) {
        return CL_VERSION_MAJOR(entry.version) == 3;
    });
    if (opencl_c_3)
        CHECK(has(opencl_c_features(id), "__opencl_c_int64"));
}

TEST_CASE("the linker is available whenever the compiler is", "[device_info]") {
    cl_device_id id = device();
    if (device_info<cl_bool>(id, CL_DEVICE_COMPILER_AVAILABLE) == CL_TRUE)
        CHECK(device_info<cl_bool>(id, CL_DEVICE_LINKER_AVAILABLE) == CL_TRUE);
}
