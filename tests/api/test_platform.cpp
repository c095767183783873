// clGetPlatformIDs, clIcdGetPlatformIDsKHR, clGetPlatformInfo,
// clUnloadPlatformCompiler through the ICD loader.
#include "cl_test.hpp"

#include <algorithm>
#include <cstdio>
#include <set>

using namespace cl_test;

namespace {

using GetPlatformIds = cl_int(CL_API_CALL*)(cl_uint, cl_platform_id*, cl_uint*);

GetPlatformIds icd_get_platform_ids() {
    void* address = clGetExtensionFunctionAddressForPlatform(platform(), "clIcdGetPlatformIDsKHR");
    REQUIRE(address != nullptr);
    return reinterpret_cast<GetPlatformIds>(address);
}

// "OpenCL 3.0 usmcl ..." -> CL_MAKE_VERSION(3, 0, 0)
cl_version version_in(const std::string& text, const char* prefix) {
    unsigned major = 0;
    unsigned minor = 0;
    const std::string format = std::string(prefix) + "%u.%u";
    REQUIRE(std::sscanf(text.c_str(), format.c_str(), &major, &minor) == 2);
    return CL_MAKE_VERSION(major, minor, 0);
}

const cl_platform_info all_platform_queries[] = {
    CL_PLATFORM_PROFILE,
    CL_PLATFORM_VERSION,
    CL_PLATFORM_NUMERIC_VERSION,
    CL_PLATFORM_NAME,
    CL_PLATFORM_VENDOR,
    CL_PLATFORM_EXTENSIONS,
    CL_PLATFORM_EXTENSIONS_WITH_VERSION,
    CL_PLATFORM_HOST_TIMER_RESOLUTION,
    CL_PLATFORM_ICD_SUFFIX_KHR,
};

void check_get_platform_ids(GetPlatformIds get_platform_ids) {
    SECTION("the count alone") {
        cl_uint count = 0;
        REQUIRE_OK(get_platform_ids(0, nullptr, &count));
        CHECK(count == 1);
    }
    SECTION("the handle without the count") {
        cl_platform_id id = nullptr;
        REQUIRE_OK(get_platform_ids(1, &id, nullptr));
        CHECK(id == platform());
    }
    SECTION("a larger array: only the first entry is written") {
        const auto sentinel = reinterpret_cast<cl_platform_id>(0x1234);
        cl_platform_id ids[3] = {sentinel, sentinel, sentinel};
        cl_uint count = 0;
        REQUIRE_OK(get_platform_ids(3, ids, &count));
        CHECK(count == 1);
        CHECK(ids[0] == platform());
        CHECK(ids[1] == sentinel);
        CHECK(ids[2] == sentinel);
    }
    SECTION("num_entries 0 with a platforms array: CL_INVALID_VALUE") {
        cl_platform_id id = nullptr;
        cl_uint count = 0;
        CHECK_CL(get_platform_ids(0, &id, &count), CL_INVALID_VALUE);
        CHECK_CL(get_platform_ids(0, &id, nullptr), CL_INVALID_VALUE);
        CHECK(id == nullptr);
    }
    SECTION("platforms and num_platforms both NULL: CL_INVALID_VALUE") {
        CHECK_CL(get_platform_ids(1, nullptr, nullptr), CL_INVALID_VALUE);
        CHECK_CL(get_platform_ids(0, nullptr, nullptr), CL_INVALID_VALUE);
    }
}

} // namespace

TEST_CASE("clGetPlatformIDs lists the usmcl platform", "[platform]") {
    check_get_platform_ids(clGetPlatformIDs);
}

TEST_CASE("clIcdGetPlatformIDsKHR follows the clGetPlatformIDs rules", "[platform]") {
    check_get_platform_ids(icd_get_platform_ids());
}

TEST_CASE("clGetPlatformInfo reports what usmcl is", "[platform]") {
    cl_platform_id id = platform();

    CHECK(platform_info_string(id, CL_PLATFORM_PROFILE) == "FULL_PROFILE");
    CHECK(platform_info_string(id, CL_PLATFORM_NAME) == "usmcl");
    CHECK_FALSE(platform_info_string(id, CL_PLATFORM_VENDOR).empty());
    // The suffix of the USM functions, so that ocl-icd's
    // clGetExtensionFunctionAddress forwards them to usmcl.
    CHECK(platform_info_string(id, CL_PLATFORM_ICD_SUFFIX_KHR) == "INTEL");

    // "OpenCL<space><major.minor><space><platform-specific information>"
    const std::string version = platform_info_string(id, CL_PLATFORM_VERSION);
    CHECK(version.rfind("OpenCL 3.0 ", 0) == 0);
    const auto numeric = info<cl_version>(clGetPlatformInfo, id, CL_PLATFORM_NUMERIC_VERSION);
    CHECK(numeric == CL_MAKE_VERSION(3, 0, 0));
    CHECK(CL_VERSION_MAJOR(numeric) == CL_VERSION_MAJOR(version_in(version, "OpenCL ")));
    CHECK(CL_VERSION_MINOR(numeric) == CL_VERSION_MINOR(version_in(version, "OpenCL ")));

    // Timer synchronization is supported: a non-zero resolution.
    CHECK(info<cl_ulong>(clGetPlatformInfo, id, CL_PLATFORM_HOST_TIMER_RESOLUTION) > 0);
}

TEST_CASE("platform extensions: the string and the versioned list agree", "[platform]") {
    cl_platform_id id = platform();
    const auto words = split_words(platform_info_string(id, CL_PLATFORM_EXTENSIONS));
    const auto with_version =
        info_array<cl_name_version>(clGetPlatformInfo, id, CL_PLATFORM_EXTENSIONS_WITH_VERSION);

    // Loaders look for cl_khr_icd; cl_khr_extended_versioning is what makes
    // the _WITH_VERSION queries an extension-free promise.
    CHECK(std::count(words.begin(), words.end(), "cl_khr_icd") == 1);
    CHECK(std::count(words.begin(), words.end(), "cl_khr_extended_versioning") == 1);

    const std::set<std::string> word_set(words.begin(), words.end());
    CHECK(word_set.size() == words.size()); // no duplicates
    const auto names = names_of(with_version);
    CHECK(std::set<std::string>(names.begin(), names.end()) == word_set);
    CHECK(names.size() == words.size());
    for (const cl_name_version& entry : with_version) {
        INFO(entry.name);
        CHECK(entry.version != 0);
        CHECK(std::find(std::begin(entry.name), std::end(entry.name), '\0') !=
              std::end(entry.name));
    }
}

TEST_CASE("clGetPlatformInfo size rules for every query", "[platform]") {
    cl_platform_id id = platform();
    for (cl_platform_info param : all_platform_queries) {
        INFO("param 0x" << std::hex << param);
        size_t size = 0;
        REQUIRE_OK(clGetPlatformInfo(id, param, 0, nullptr, &size));
        REQUIRE(size > 0);

        constexpr unsigned char guard = 0x5a;
        std::vector<unsigned char> buffer(size + 32, guard);
        size_t written = 0;
        REQUIRE_OK(clGetPlatformInfo(id, param, buffer.size(), buffer.data(), &written));
        CHECK(written == size);
        for (size_t i = size; i < buffer.size(); ++i)
            REQUIRE(buffer[i] == guard);
        CHECK_OK(clGetPlatformInfo(id, param, size, buffer.data(), nullptr));

        // Too small: CL_INVALID_VALUE, and nothing is written.
        std::vector<unsigned char> small(size, guard);
        CHECK_CL(clGetPlatformInfo(id, param, size - 1, small.data(), nullptr), CL_INVALID_VALUE);
        CHECK_CL(clGetPlatformInfo(id, param, 1, small.data(), nullptr),
                 size > 1 ? CL_INVALID_VALUE : CL_SUCCESS);
        if (size > 1)
            CHECK(std::all_of(small.begin(), small.end(), [](auto b) { return b == guard; }));
    }
}

TEST_CASE("clGetPlatformInfo rejects unknown queries", "[platform]") {
    cl_platform_id id = platform();
    char buffer[256] = {};
    size_t size = 0;
    for (cl_platform_info param :
         {cl_platform_info{0}, cl_platform_info{0x08ff}, cl_platform_info{0x0a00},
          cl_platform_info{CL_DEVICE_NAME}, cl_platform_info{0x7fffffff}}) {
        INFO("param 0x" << std::hex << param);
        CHECK_CL(clGetPlatformInfo(id, param, sizeof buffer, buffer, &size), CL_INVALID_VALUE);
        CHECK_CL(clGetPlatformInfo(id, param, 0, nullptr, &size), CL_INVALID_VALUE);
    }
}

TEST_CASE("clGetPlatformInfo rejects handles that are not a platform", "[platform]") {
    cl_device_id device_id = device();
    const ContextPtr context = make_context({device_id});
    char name[64] = {};

    SECTION("through the loader") {
        CHECK_CL(clGetPlatformInfo(reinterpret_cast<cl_platform_id>(context.get()),
                                   CL_PLATFORM_NAME, sizeof name, name, nullptr),
                 CL_INVALID_PLATFORM);
        CHECK_CL(clGetPlatformInfo(reinterpret_cast<cl_platform_id>(device_id), CL_PLATFORM_NAME,
                                   sizeof name, name, nullptr),
                 CL_INVALID_PLATFORM);
        FakeObject garbage(platform(), 0xa5);
        CHECK_CL(clGetPlatformInfo(garbage.as<cl_platform_id>(), CL_PLATFORM_NAME, sizeof name,
                                   name, nullptr),
                 CL_INVALID_PLATFORM);
        FakeObject zeros(platform(), 0x00);
        CHECK_CL(clGetPlatformInfo(zeros.as<cl_platform_id>(), CL_PLATFORM_NAME, sizeof name, name,
                                   nullptr),
                 CL_INVALID_PLATFORM);
    }
    SECTION("directly through usmcl's dispatch table") {
        const cl_icd_dispatch& table = dispatch_of(platform());
        CHECK_CL(table.clGetPlatformInfo(reinterpret_cast<cl_platform_id>(context.get()),
                                         CL_PLATFORM_NAME, sizeof name, name, nullptr),
                 CL_INVALID_PLATFORM);
        FakeObject garbage(platform(), 0xff);
        CHECK_CL(table.clGetPlatformInfo(garbage.as<cl_platform_id>(), CL_PLATFORM_NAME,
                                         sizeof name, name, nullptr),
                 CL_INVALID_PLATFORM);
    }
    CHECK(name[0] == '\0');
}

TEST_CASE("a NULL platform selects usmcl's (implementation-defined)", "[platform]") {
    const cl_icd_dispatch& table = dispatch_of(platform());
    char name[64] = {};
    REQUIRE_OK(table.clGetPlatformInfo(nullptr, CL_PLATFORM_NAME, sizeof name, name, nullptr));
    CHECK(std::string(name) == "usmcl");
}

TEST_CASE("clUnloadPlatformCompiler and clUnloadCompiler", "[platform]") {
    CHECK_OK(clUnloadPlatformCompiler(platform()));
    CHECK_OK(clUnloadCompiler());
    const ContextPtr context = make_context({device()});
    CHECK_CL(clUnloadPlatformCompiler(reinterpret_cast<cl_platform_id>(context.get())),
             CL_INVALID_PLATFORM);
    FakeObject garbage(platform(), 0x11);
    CHECK_CL(dispatch_of(platform()).clUnloadPlatformCompiler(garbage.as<cl_platform_id>()),
             CL_INVALID_PLATFORM);
    // The platform still answers afterwards.
    CHECK(platform_info_string(platform(), CL_PLATFORM_NAME) == "usmcl");
}
