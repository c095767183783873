//===- tools/spirv-fuzz.cpp - Fuzzing the SPIR-V reader -------------------===//
//
// A libFuzzer target (LLVMFuzzerTestOneInput) for the SPIR-V path as
// clCreateProgramWithIL and clCompileProgram take it: inspectSpirv, then the
// reader and the builtin mapping (compileSpirv). Any input must end in a
// result or an error message, never a crash.
//
// Built with g++ (no libFuzzer), main() is a small deterministic fuzzer of
// its own: every file given and many mutations of it (bit flips, words
// replaced by small numbers and ids, truncations, instructions dropped) go
// through the target. The test suite runs it on the reader tests' modules.
// With clang: clang++ -fsanitize=fuzzer -DKC_LIBFUZZER ... for libFuzzer.
//
//   spirv-fuzz [-iterations=N] [-seed=N] FILE.spv...
//
//===----------------------------------------------------------------------===//
#include "kc/Compiler.h"
#include "kc/Spirv.h"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <iterator>
#include <random>
#include <string>
#include <vector>

namespace {
unsigned Read = 0;  // inputs that passed inspectSpirv
unsigned Built = 0; // inputs compiled to an object
} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  const std::string Bytes(reinterpret_cast<const char *>(Data), Size);
  kc::SpirvModuleInfo Info;
  std::string Error;
  if (!kc::inspectSpirv(Bytes, Info, Error))
    return 0;
  ++Read;
  kc::DeviceTarget Target;
  if (kc::compileSpirv(Bytes, {}, "", Target).Output)
    ++Built;
  return 0;
}

#ifndef KC_LIBFUZZER
namespace {

std::vector<uint32_t> mutate(std::vector<uint32_t> Words, std::mt19937 &Rng) {
  if (Words.size() <= 5)
    return Words;
  std::uniform_int_distribution<size_t> Pick(5, Words.size() - 1);
  switch (Rng() % 5) {
  case 0: // a bit flipped
    Words[Pick(Rng)] ^= 1u << (Rng() % 32);
    break;
  case 1: // a small number (an id, an opcode, a count)
    Words[Pick(Rng)] = Rng() % 64;
    break;
  case 2: // the opcode of an instruction changed, its word count kept
    Words[Pick(Rng)] = (Words[Pick(Rng)] & 0xffff0000u) | (Rng() % 400);
    break;
  case 3: // truncated
    Words.resize(Pick(Rng));
    break;
  default: { // an instruction-sized hole
    const size_t At = Pick(Rng);
    Words.erase(Words.begin() + At,
                Words.begin() + std::min(Words.size(), At + 1 + Rng() % 4));
    break;
  }
  }
  return Words;
}

} // namespace

int main(int Argc, char **Argv) {
  unsigned Iterations = 200;
  std::mt19937 Rng(12345);
  unsigned Files = 0, Runs = 0;
  for (int A = 1; A < Argc; ++A) {
    const std::string Arg = Argv[A];
    if (Arg.rfind("-seed=", 0) == 0) {
      Rng.seed(static_cast<unsigned>(std::stoul(Arg.substr(6))));
      continue;
    }
    if (Arg.rfind("-iterations=", 0) == 0) {
      Iterations = static_cast<unsigned>(std::stoul(Arg.substr(12)));
      continue;
    }
    std::ifstream In(Arg, std::ios::binary);
    const std::string Bytes((std::istreambuf_iterator<char>(In)),
                            std::istreambuf_iterator<char>());
    if (!In && !In.eof()) {
      std::fprintf(stderr, "%s: cannot read\n", Arg.c_str());
      return 1;
    }
    ++Files;
    LLVMFuzzerTestOneInput(reinterpret_cast<const uint8_t *>(Bytes.data()),
                           Bytes.size());
    std::vector<uint32_t> Words(Bytes.size() / 4);
    std::copy_n(Bytes.data(), Words.size() * 4,
                reinterpret_cast<char *>(Words.data()));
    for (unsigned I = 0; I < Iterations; ++I) {
      std::vector<uint32_t> Mutant = mutate(Words, Rng);
      for (unsigned More = Rng() % 3; More > 0; --More)
        Mutant = mutate(std::move(Mutant), Rng);
      LLVMFuzzerTestOneInput(reinterpret_cast<const uint8_t *>(Mutant.data()),
                             Mutant.size() * 4);
      ++Runs;
    }
  }
  std::printf("%u files, %u mutants (%u read, %u built): no crash\n", Files,
              Runs, Read, Built);
  return Files ? 0 : 1;
}
#endif
