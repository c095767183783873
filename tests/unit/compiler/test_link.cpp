// Linking objects and libraries; program binaries.
#include "compiler_test.hpp"

using kctest::compiler;

namespace {

std::unique_ptr<kc::Module> compileObject(const char* Source, const char* Options = "") {
    kc::BuildResult R = compiler().compile(Source, Options, {});
    INFO(R.Log);
    REQUIRE(R.Output);
    return std::move(R.Output);
}

const char* Helper = "float scale(float x) { return 2.0f * x; }\n";
const char* Kernel = "float scale(float x);\n"
                     "kernel void twice(global float *p) { p[get_global_id(0)] = "
                     "scale(p[get_global_id(0)]); }\n";

} // namespace

TEST_CASE("two objects link into an executable", "[compiler][link]") {
    auto A = compileObject(Helper);
    auto B = compileObject(Kernel);
    const kc::Module* Inputs[] = {A.get(), B.get()};
    kc::BuildResult R = compiler().link(Inputs, "");
    INFO(R.Log);
    REQUIRE(R.Output);
    CHECK(R.Output->kind() == kc::ModuleKind::Executable);
    REQUIRE(R.Output->kernels().size() == 1);
    CHECK(R.Output->kernels()[0].Name == "twice");

    auto Program = kctest::jit(*R.Output);
    float Data[4] = {1, 2, 3, 4};
    kctest::ArgBuffer Args(R.Output->kernels()[0]);
    Args.set(0, &Data[0]);
    kctest::runNDRange(Program->lookup("twice"), Args, 1, {4, 1, 1}, {4, 1, 1});
    CHECK(Data[3] == 8.0f);
}

TEST_CASE("a missing definition and a duplicate one fail the link", "[compiler][link]") {
    auto B = compileObject(Kernel);
    const kc::Module* Alone[] = {B.get()};
    kc::BuildResult R = compiler().link(Alone, "");
    CHECK_FALSE(R.Output);
    CHECK_THAT(R.Log, Catch::Contains("undefined function 'scale'"));

    auto A1 = compileObject(Helper);
    auto A2 = compileObject(Helper);
    const kc::Module* Twice[] = {A1.get(), A2.get(), B.get()};
    R = compiler().link(Twice, "");
    CHECK_FALSE(R.Output);
    CHECK_THAT(R.Log, Catch::Contains("scale"));
}

TEST_CASE("-create-library makes a library that links like an object", "[compiler][link]") {
    auto A = compileObject(Helper);
    const kc::Module* LibInputs[] = {A.get()};
    kc::BuildResult Lib = compiler().link(LibInputs, "-create-library -enable-link-options");
    INFO(Lib.Log);
    REQUIRE(Lib.Output);
    CHECK(Lib.Output->kind() == kc::ModuleKind::Library);
    CHECK(Lib.Output->kernels().empty());

    auto B = compileObject(Kernel);
    const kc::Module* Inputs[] = {Lib.Output.get(), B.get()};
    kc::BuildResult R = compiler().link(Inputs, "-cl-fast-relaxed-math");
    INFO(R.Log);
    REQUIRE(R.Output);
    CHECK(R.Output->options() == "-cl-fast-relaxed-math");

    const kc::Module* Executables[] = {R.Output.get()};
    CHECK_FALSE(compiler().link(Executables, "").Output);
}

TEST_CASE("binaries round-trip every module kind; garbage is rejected", "[compiler][binary]") {
    auto Object = compileObject(Helper, "-DX=1");
    auto Exec = kctest::build("kernel void k(global int *p, local int *l, int4 v) {"
                              " p[get_global_id(0)] = v.y; }",
                              "-cl-kernel-arg-info");
    for (const kc::Module* M : {static_cast<const kc::Module*>(Object.get()),
                                static_cast<const kc::Module*>(Exec.get())}) {
        std::string Bytes = M->toBinary();
        std::string Error;
        auto Back = kc::moduleFromBinary(Bytes, Error);
        INFO(Error);
        REQUIRE(Back);
        CHECK(Back->kind() == M->kind());
        CHECK(Back->options() == M->options());
        CHECK(Back->toBinary() == Bytes);
        REQUIRE(Back->kernels().size() == M->kernels().size());
        for (size_t I = 0; I < M->kernels().size(); ++I) {
            const kc::KernelInfo& A = M->kernels()[I];
            const kc::KernelInfo& B = Back->kernels()[I];
            CHECK(A.Name == B.Name);
            CHECK(A.ArgBufferSize == B.ArgBufferSize);
            REQUIRE(A.Args.size() == B.Args.size());
            for (size_t J = 0; J < A.Args.size(); ++J) {
                CHECK(A.Args[J].Name == B.Args[J].Name);
                CHECK(A.Args[J].Offset == B.Args[J].Offset);
                CHECK(A.Args[J].Kind == B.Args[J].Kind);
                CHECK(A.Args[J].WriteOnly == B.Args[J].WriteOnly);
            }
        }
    }

    // An executable read back runs.
    std::string Error;
    auto Back = kc::moduleFromBinary(Exec->toBinary(), Error);
    REQUIRE(Back);
    auto Program = kctest::jit(*Back);
    int Out[2] = {0, 0};
    kctest::ArgBuffer Args(Back->kernels()[0]);
    int V[4] = {1, 7, 3, 4};
    Args.set(0, &Out[0]).set(1, uint64_t{0}).set(2, V);
    kctest::runNDRange(Program->lookup("k"), Args, 1, {2, 1, 1}, {1, 1, 1});
    CHECK(Out[1] == 7);

    std::string Good = Exec->toBinary();
    std::string Garbage[] = {"", "hello", std::string(1000, '\0'), Good.substr(0, Good.size() / 2),
                             Good + "x"};
    for (const std::string& G : Garbage) {
        Error.clear();
        CHECK_FALSE(kc::moduleFromBinary(G, Error));
        CHECK_FALSE(Error.empty());
    }
    std::string Flipped = Good;
    Flipped[Flipped.size() / 2] ^= 0x40;
    CHECK_FALSE(kc::moduleFromBinary(Flipped, Error));
    CHECK_THAT(Error, Catch::Contains("corrupt"));
    std::string Versioned = Good;
    Versioned[8] = 99;
    CHECK_FALSE(kc::moduleFromBinary(Versioned, Error));
    CHECK_THAT(Error, Catch::Contains("version"));
}
