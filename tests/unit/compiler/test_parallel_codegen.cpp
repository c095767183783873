// Code generation in parts: a program with several kernels is split, its
// parts compiled at once on threads of their own, their objects linked by
// the JIT (CodeGen/CodeGen.cpp). The kernels must give the same results as
// when the program is compiled whole, with a program-scope variable that
// kernels in different parts share, from the on-disk cache too, and the
// packed objects must read back exactly. Code generation runs without loop
// strength reduction (Support/LLVMSetup.cpp). A function's weight for the
// split counts its loops.
#include "CodeGen/CodeGen.h"
#include "compiler_test.hpp"

#include <llvm/ADT/StringMap.h>
#include <llvm/AsmParser/Parser.h>
#include <llvm/IR/Function.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>
#include <llvm/Support/CommandLine.h>
#include <llvm/Support/MemoryBuffer.h>
#include <llvm/Support/SourceMgr.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <unistd.h>

namespace {

const char* const Source = R"CLC(
global int table[4] = {10, 20, 30, 40};
kernel void add(global int* out, global const int* in) {
  size_t i = get_global_id(0);
  out[i] = in[i] + table[i % 4];
}
kernel void scale(global int* out, global const int* in) {
  size_t i = get_global_id(0);
  out[i] = in[i] * 3 - table[3 - i % 4];
}
kernel void reverse(global int* out, global const int* in, local int* tile) {
  size_t l = get_local_id(0), n = get_local_size(0);
  tile[l] = in[get_global_id(0)];
  barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(0)] = tile[n - 1 - l];
}
kernel void bump(void) {
  if (get_global_id(0) == 0)
    table[1] += 1;
}
)CLC";

constexpr uint64_t Items = 64;

// Runs every kernel of the program once and checks the results.
void runAll(const kc::Module& M, kc::NativeProgram& P) {
    std::vector<int> In(Items), Out(Items);
    for (size_t I = 0; I < Items; ++I)
        In[I] = static_cast<int>(I * 7 % 13);
    const int Table[4] = {10, 20, 30, 40};
    int* OutP = Out.data();
    const int* InP = In.data();

    kctest::ArgBuffer Add(kctest::kernel(M, "add"));
    Add.set(0, OutP).set(1, InP);
    kctest::runNDRange(P.lookup("add"), Add, 1, {Items, 1, 1}, {16, 1, 1});
    for (size_t I = 0; I < Items; ++I)
        REQUIRE(Out[I] == In[I] + Table[I % 4]);

    kctest::ArgBuffer Scale(kctest::kernel(M, "scale"));
    Scale.set(0, OutP).set(1, InP);
    kctest::runNDRange(P.lookup("scale"), Scale, 1, {Items, 1, 1}, {16, 1, 1});
    for (size_t I = 0; I < Items; ++I)
        REQUIRE(Out[I] == In[I] * 3 - Table[3 - I % 4]);

    kctest::ArgBuffer Reverse(kctest::kernel(M, "reverse"));
    const uint64_t LocalOffset = 0;
    Reverse.set(0, OutP).set(1, InP).set(2, LocalOffset);
    kctest::runNDRange(P.lookup("reverse"), Reverse, 1, {Items, 1, 1}, {16, 1, 1}, {0, 0, 0},
                       16 * sizeof(int));
    for (size_t I = 0; I < Items; ++I)
        REQUIRE(Out[I] == In[I / 16 * 16 + 15 - I % 16]);

    // A kernel of another part changes the variable: add sees it.
    kctest::ArgBuffer Bump(kctest::kernel(M, "bump"));
    kctest::runNDRange(P.lookup("bump"), Bump, 1, {1, 1, 1}, {1, 1, 1});
    kctest::runNDRange(P.lookup("add"), Add, 1, {Items, 1, 1}, {16, 1, 1});
    for (size_t I = 0; I < Items; ++I)
        REQUIRE(Out[I] == In[I] + Table[I % 4] + (I % 4 == 1 ? 1 : 0));
}

struct ThreadsFor {
    explicit ThreadsFor(unsigned Threads) { kc::setCodeGenThreads(Threads); }
    ~ThreadsFor() { kc::setCodeGenThreads(0); }
};

std::string fileBytes(const std::filesystem::path& Path) {
    std::ifstream In(Path, std::ios::binary);
    return {std::istreambuf_iterator<char>(In), std::istreambuf_iterator<char>()};
}

} // namespace

TEST_CASE("a program compiled in parts runs like one compiled whole", "[compiler][codegen]") {
    for (unsigned Threads : {1u, 2u, 4u}) {
        INFO("threads " << Threads);
        ThreadsFor Limit(Threads);
        auto M = kctest::build(Source, "-cl-std=CL3.0");
        auto P = kctest::jit(*M);
        runAll(*M, *P);
    }
}

TEST_CASE("a program compiled in parts comes back from the on-disk cache",
          "[compiler][codegen][cache]") {
    ThreadsFor Limit(3);
    kctest::TempDir Dir;
    kc::CodeCache Cache{true, Dir.Path.string()};
    auto M = kctest::build(Source, "-cl-std=CL3.0");
    std::string Error;
    auto First = kc::createNativeProgram(*M, Cache, Error);
    INFO(Error);
    REQUIRE(First);
    runAll(*M, *First);

    std::vector<std::filesystem::path> Entries;
    for (const auto& Entry : std::filesystem::directory_iterator(Dir.Path))
        Entries.push_back(Entry.path());
    REQUIRE(Entries.size() == 1);
    const std::string Bytes = fileBytes(Entries[0]);
    CHECK(Bytes.find(std::string(kc::PackedObjectsMagic, sizeof(kc::PackedObjectsMagic))) !=
          std::string::npos);

    auto Second = kc::createNativeProgram(*M, Cache, Error);
    REQUIRE(Second);
    runAll(*M, *Second);
    CHECK(fileBytes(Entries[0]) == Bytes); // read, not written again
}

TEST_CASE("packed objects read back exactly", "[compiler][codegen]") {
    const std::string A = "\x7f"
                          "ELF first object";
    const std::string B(1000, 'b');
    const llvm::StringRef Two[] = {A, B};
    auto Packed = kc::packObjects(Two);
    std::vector<std::unique_ptr<llvm::MemoryBuffer>> Objects;
    REQUIRE(kc::unpackObjects(*Packed, Objects));
    REQUIRE(Objects.size() == 2);
    CHECK(Objects[0]->getBuffer() == A);
    CHECK(Objects[1]->getBuffer() == B);

    // One object is not packed: it is the object itself.
    const llvm::StringRef One[] = {A};
    auto Single = kc::packObjects(One);
    CHECK(Single->getBuffer() == A);
    REQUIRE(kc::unpackObjects(*Single, Objects));
    REQUIRE(Objects.size() == 1);
    CHECK(Objects[0]->getBuffer() == A);

    // Cut short, or a count of 0: no objects.
    const std::string Whole = Packed->getBuffer().str();
    for (size_t Cut : {size_t{8}, size_t{12}, size_t{20}, Whole.size() - 1}) {
        auto Short = llvm::MemoryBuffer::getMemBufferCopy(Whole.substr(0, Cut));
        CHECK_FALSE(kc::unpackObjects(*Short, Objects));
    }
    std::string Zero = Whole.substr(0, 8) + std::string(8, '\0');
    CHECK_FALSE(kc::unpackObjects(*llvm::MemoryBuffer::getMemBufferCopy(Zero), Objects));
    // Bytes after the last object.
    CHECK_FALSE(kc::unpackObjects(*llvm::MemoryBuffer::getMemBufferCopy(Whole + "x"), Objects));
}

TEST_CASE("code generation runs without loop strength reduction", "[compiler][codegen]") {
    auto M = kctest::build(Source, "-cl-std=CL3.0");
    auto P = kctest::jit(*M); // the compiler set up LLVM
    llvm::StringMap<llvm::cl::Option*>& Options = llvm::cl::getRegisteredOptions();
    REQUIRE(Options.count("disable-lsr") == 1);
    CHECK(static_cast<llvm::cl::opt<bool>*>(Options["disable-lsr"])->getValue());
}
