// The front end: build logs, options, predefined macros, headers.
#include "compiler_test.hpp"

using kctest::compiler;

TEST_CASE("a build error produces a log with the error line", "[compiler][frontend]") {
    const char* Source = "kernel void k(global int *p) {\n"
                         "  p[0] = undeclared_name;\n"
                         "}\n";
    kc::BuildResult R = compiler().build(Source, "");
    CHECK_FALSE(R.Output);
    CHECK_FALSE(R.InvalidOptions);
    CHECK_THAT(R.Log, Catch::Contains("input.cl:2:10: error: use of undeclared identifier "
                                      "'undeclared_name'"));
    CHECK_THAT(R.Log, Catch::Contains("p[0] = undeclared_name;"));
    CHECK_THAT(R.Log, Catch::Contains("|          ^"));
    CHECK_THAT(R.Log, Catch::Contains("1 error generated."));
}

TEST_CASE("warnings reach the log of a successful build; -w and -Werror", "[compiler][frontend]") {
    const char* Source = "kernel void k(global int *p) { int unused; p[0] = 1; }\n";
    const char* Warning = "int f(int x) { if (x) return 1; }\n"
                          "kernel void k(global int *p) { p[0] = f(p[1]); }\n";
    kc::BuildResult R = compiler().build(Warning, "");
    REQUIRE(R.Output);
    CHECK_THAT(R.Log, Catch::Contains("warning:"));
    kc::BuildResult Quiet = compiler().build(Warning, "-w");
    REQUIRE(Quiet.Output);
    CHECK(Quiet.Log.empty());
    kc::BuildResult Strict = compiler().build(Warning, "-Werror");
    CHECK_FALSE(Strict.Output);
    CHECK_THAT(Strict.Log, Catch::Contains("error:"));
    CHECK(compiler().build(Source, "-Werror").Output);
}

TEST_CASE("build options are checked per the specification", "[compiler][options]") {
    std::string Error;
    for (const char* Valid : {"",
                              "-DX",
                              "-D X=1",
                              "-DX=\"a b\"",
                              "-I /tmp",
                              "-I/tmp",
                              "-cl-std=CL1.0",
                              "-cl-std=CL1.1",
                              "-cl-std=CL1.2",
                              "-cl-std=CL3.0",
                              "-cl-opt-disable",
                              "-cl-mad-enable",
                              "-cl-no-signed-zeros",
                              "-cl-unsafe-math-optimizations",
                              "-cl-finite-math-only",
                              "-cl-fast-relaxed-math",
                              "-cl-denorms-are-zero",
                              "-cl-fp32-correctly-rounded-divide-sqrt",
                              "-cl-uniform-work-group-size",
                              "-cl-kernel-arg-info",
                              "-w",
                              "-Werror",
                              "-g",
                              "-cl-single-precision-constant",
                              "  -DA   -DB  -cl-mad-enable "}) {
        INFO(Valid);
        CHECK(compiler().checkCompileOptions(Valid, Error));
    }
    for (const char* Invalid : {"-O3", "-cl-std=CL4.0", "-cl-std=CL2.0", "-D", "-I", "--foo",
                                "-cl-fast-relaxed", "-create-library", "-DX=\"open"}) {
        INFO(Invalid);
        Error.clear();
        CHECK_FALSE(compiler().checkCompileOptions(Invalid, Error));
        CHECK_FALSE(Error.empty());
    }
    for (const char* Valid : {"", "-create-library", "-create-library -enable-link-options",
                              "-cl-denorms-are-zero -cl-no-signed-zeroes -cl-finite-math-only",
                              "-cl-unsafe-math-optimizations -cl-fast-relaxed-math"}) {
        INFO(Valid);
        CHECK(compiler().checkLinkOptions(Valid, Error));
    }
    for (const char* Invalid :
         {"-enable-link-options", "-DX", "-cl-std=CL1.2", "-cl-opt-disable", "-g", "-x"}) {
        INFO(Invalid);
        CHECK_FALSE(compiler().checkLinkOptions(Invalid, Error));
    }
}

TEST_CASE("invalid options are reported as such by compile, link and build",
          "[compiler][options]") {
    kc::BuildResult R = compiler().build("kernel void k() {}", "-cl-unknown");
    CHECK(R.InvalidOptions);
    CHECK_FALSE(R.Output);
    CHECK_THAT(R.Log, Catch::Contains("-cl-unknown"));
    R = compiler().compile("kernel void k() {}", "-create-library", {});
    CHECK(R.InvalidOptions);
    R = compiler().link({}, "-cl-std=CL1.2");
    CHECK(R.InvalidOptions);
}

TEST_CASE("-D and -cl-std reach the preprocessor", "[compiler][options]") {
    const char* Source = "#if VALUE != 42 || !defined(FLAG)\n#error macros\n#endif\n"
                         "#if __OPENCL_C_VERSION__ != EXPECTED\n#error version\n#endif\n"
                         "kernel void k(global int *p) { p[0] = VALUE; }\n";
    CHECK(compiler().build(Source, "-DVALUE=42 -D FLAG -DEXPECTED=120").Output);
    CHECK(compiler().build(Source, "-DVALUE=42 -D FLAG -DEXPECTED=300 -cl-std=CL3.0").Output);
    CHECK(compiler().build(Source, "-DVALUE=42 -D FLAG -DEXPECTED=110 -cl-std=CL1.1").Output);
    kc::BuildResult R = compiler().build(Source, "-DVALUE=41 -DFLAG -DEXPECTED=120");
    CHECK_FALSE(R.Output);
    CHECK_THAT(R.Log, Catch::Contains("#error macros"));
}

TEST_CASE("predefined macros follow the device target", "[compiler][frontend]") {
    const char* Source =
        "#if __OPENCL_VERSION__ != 300 || !defined(__ENDIAN_LITTLE__)\n#error v\n#endif\n"
        "#ifndef cl_khr_fp64\n#error fp64\n#endif\n"
        "#if defined(__OPENCL_C_VERSION__) && __OPENCL_C_VERSION__ == 300\n"
        "#ifndef __opencl_c_fp64\n#error feature\n#endif\n"
        "#ifdef __opencl_c_pipes\n#error pipes\n#endif\n"
        "#endif\n"
        "#ifdef __IMAGE_SUPPORT__\n#error images\n#endif\n"
        "kernel void k(global double *p) { p[0] = 1.0; }\n";
    CHECK(compiler().build(Source, "").Output);
    CHECK(compiler().build(Source, "-cl-std=CL3.0").Output);
    CHECK(compiler()
              .build("#ifndef __FAST_RELAXED_MATH__\n#error f\n#endif\nkernel void k(){}",
                     "-cl-fast-relaxed-math")
              .Output);

    kc::DeviceTarget NoFp64 = kctest::cpuTarget();
    NoFp64.Fp64 = false;
    NoFp64.Extensions.erase(NoFp64.Extensions.begin());
    NoFp64.OpenCLCFeatures.erase(NoFp64.OpenCLCFeatures.begin() + 1);
    kc::Compiler C(NoFp64);
    kc::BuildResult R = C.build("kernel void k(global double *p) { p[0] = 1.0; }", "-cl-std=CL3.0");
    CHECK_FALSE(R.Output);
    CHECK_THAT(R.Log, Catch::Contains("double"));
}

TEST_CASE("compile sees in-memory headers, by name and through -I", "[compiler][frontend]") {
    kc::Header Headers[] = {{"defs.h", "#define ONE 1\n"},
                            {"inc/more.h", "#include \"nested.h\"\n#define TWO (ONE + ONE)\n"},
                            {"inc/nested.h", "#define NESTED 1\n"}};
    const char* Source = "#include \"defs.h\"\n#include \"more.h\"\n"
                         "kernel void k(global int *p) { p[0] = ONE + TWO; }\n";
    kc::BuildResult R = compiler().compile(Source, "-I inc", Headers);
    INFO(R.Log);
    REQUIRE(R.Output);
    CHECK(R.Output->kind() == kc::ModuleKind::Object);
    CHECK(R.Output->kernels().empty());

    kc::BuildResult Missing = compiler().compile(Source, "", Headers);
    CHECK_FALSE(Missing.Output);
    CHECK_THAT(Missing.Log, Catch::Contains("'more.h' file not found"));
}
