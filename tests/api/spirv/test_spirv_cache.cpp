// The SPIR-V translation cache: a module that was translated once (the same
// specialized SPIR-V, the same translator file) is not translated again, and
// a damaged cache entry is not trusted. Before the driver loads, the test
// makes its own folder with a translator script that counts its runs and then
// runs llvm-spirv-15 (named by USMCL_LLVM_SPIRV) and an empty cache folder
// (USMCL_CACHE_DIR).
#include "spirv_test.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>

using namespace spirv_test;

namespace {

namespace fs = std::filesystem;

// This test's folder: the translator script, its run count and the cache.
struct Workspace {
    fs::path root;
    fs::path runs;
    fs::path cache;
};

const Workspace& workspace() {
    static const Workspace space = [] {
        std::string pattern = (fs::temp_directory_path() / "usmcl-spirv-cache-XXXXXX").string();
        if (mkdtemp(pattern.data()) == nullptr)
            std::abort();
        Workspace made{pattern, fs::path(pattern) / "runs", fs::path(pattern) / "cache"};
        const fs::path script = made.root / "llvm-spirv";
        std::ofstream(script) << "#!/bin/sh\necho run >> '" << made.runs.string() << "'\nexec '"
                              << LLVM_SPIRV << "' \"$@\"\n";
        chmod(script.c_str(), 0755);
        fs::create_directories(made.cache);
        setenv("USMCL_LLVM_SPIRV", script.c_str(), 1);
        setenv("USMCL_CACHE", "1", 1);
        setenv("USMCL_CACHE_DIR", made.cache.c_str(), 1);
        return made;
    }();
    return space;
}

// Made before main(), so before the driver reads its configuration.
const bool workspace_ready = !workspace().root.empty();

struct RemoveWorkspace {
    ~RemoveWorkspace() {
        std::error_code ignored;
        fs::remove_all(workspace().root, ignored);
    }
} remove_workspace;

// How many times the translator has run.
size_t translator_runs() {
    std::ifstream file(workspace().runs);
    size_t lines = 0;
    for (std::string line; std::getline(file, line);)
        ++lines;
    return lines;
}

// The translation entries in the cache folder.
std::vector<fs::path> translation_entries() {
    std::vector<fs::path> entries;
    for (const auto& entry : fs::directory_iterator(workspace().cache))
        if (entry.path().extension() == ".kcs")
            entries.push_back(entry.path());
    return entries;
}

ProgramPtr build_il(const Fixture& f, const std::string& il) {
    cl_int error = CL_OUT_OF_RESOURCES;
    cl_program program = clCreateProgramWithIL(f.ctx(), il.data(), il.size(), &error);
    REQUIRE_OK(error);
    ProgramPtr owned(program);
    build(program, f.device, nullptr);
    return owned;
}

// Runs kernels.spv's `arith` and compares it with the host.
void check_arith(const Fixture& f, cl_program program) {
    constexpr size_t n = 256;
    std::vector<float> a(n), b(n);
    for (size_t i = 0; i < n; ++i) {
        a[i] = 0.5f * static_cast<float>(i);
        b[i] = 3.0f - static_cast<float>(i);
    }
    MemPtr a_mem = make_buffer(f.ctx(), a);
    MemPtr b_mem = make_buffer(f.ctx(), b);
    MemPtr out = make_buffer<float>(f.ctx(), n);
    KernelPtr kernel = make_kernel(program, "arith");
    set_arg(kernel.get(), 0, a_mem);
    set_arg(kernel.get(), 1, b_mem);
    set_arg(kernel.get(), 2, out);
    set_arg(kernel.get(), 3, 2.0f);
    set_arg(kernel.get(), 4, cl_int{5});
    run_1d(f.q(), kernel.get(), n);
    const std::vector<float> result = read_buffer<float>(f.q(), out.get(), n);
    for (size_t i = 0; i < n; ++i) {
        const float expected = a[i] * 2.0f + b[i] - 5.0f + static_cast<float>(i % 7);
        INFO("item " << i);
        CHECK(std::fabs(result[i] - expected) <= 1e-5f * std::max(1.0f, std::fabs(expected)));
    }
}

} // namespace

TEST_CASE("a SPIR-V module is translated once, then taken from the cache", "[spirv-cache]") {
    REQUIRE(workspace_ready);
    Fixture f;
    REQUIRE(!cl_test::device_info_string(f.device, CL_DEVICE_IL_VERSION).empty());
    const std::string kernels = spirv_module("kernels");

    ProgramPtr first = build_il(f, kernels);
    CHECK(translator_runs() == 1);
    CHECK(translation_entries().size() == 1);
    check_arith(f, first.get());

    // The same module again: no translator run, the same results.
    ProgramPtr second = build_il(f, kernels);
    CHECK(translator_runs() == 1);
    check_arith(f, second.get());

    // Another module is translated.
    ProgramPtr other = build_il(f, spirv_module("kernels_1_0"));
    CHECK(translator_runs() == 2);
    check_arith(f, other.get());
    CHECK(translation_entries().size() == 2);

    // A damaged entry is not trusted: the translator runs again and the
    // results are right.
    for (const fs::path& entry : translation_entries()) {
        std::fstream file(entry, std::ios::in | std::ios::out | std::ios::binary);
        file.seekp(static_cast<std::streamoff>(fs::file_size(entry) / 2));
        file.put('\x5a').put('\xa5').put('\x00');
    }
    ProgramPtr rebuilt = build_il(f, kernels);
    CHECK(translator_runs() == 3);
    check_arith(f, rebuilt.get());
    ProgramPtr again = build_il(f, kernels);
    CHECK(translator_runs() == 3);
}

TEST_CASE("specialization constants take part in the translation's key", "[spirv-cache]") {
    REQUIRE(workspace_ready);
    Fixture f;
    const std::string il = spirv_module("spec_constants");
    const size_t before = translator_runs();
    auto build_with = [&](cl_uint id, cl_int value) {
        cl_int error = CL_OUT_OF_RESOURCES;
        cl_program program = clCreateProgramWithIL(f.ctx(), il.data(), il.size(), &error);
        REQUIRE_OK(error);
        ProgramPtr owned(program);
        if (id != 0)
            REQUIRE_OK(clSetProgramSpecializationConstant(program, id, sizeof value, &value));
        build(program, f.device, nullptr);
        return owned;
    };
    build_with(0, 0);
    CHECK(translator_runs() == before + 1);
    build_with(0, 0);
    CHECK(translator_runs() == before + 1);
    build_with(5, 77);
    CHECK(translator_runs() == before + 2);
    build_with(5, 77);
    CHECK(translator_runs() == before + 2);
}
