//===- kc/Compiler.h - OpenCL C to native work-group functions ------------===//
//
// The compiler library. It knows nothing of the driver: it takes sources and
// option strings and gives back modules (bitcode plus kernel metadata), and
// turns a module into native work-group functions for the host CPU.
//
// Thread safety: every call may run concurrently with any other (one LLVM
// context per call; no process-wide lock).
//
//===----------------------------------------------------------------------===//
#pragma once

#include "kc/KernelInfo.h"
#include "kc/Launch.h"

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace kc {

// What the target device offers: becomes the predefined macros (OpenCL C
// 3.0 feature macros, extension macros) and the accepted -cl-std values.
struct DeviceTarget {
  std::vector<std::string> Extensions;      // e.g. "cl_khr_fp64"
  std::vector<std::string> OpenCLCFeatures; // e.g. "__opencl_c_int64"
  bool ImageSupport = false;
  bool Fp64 = false;
  // The sub-group size of kernels without intel_reqd_sub_group_size: the
  // number of floats in a vector register (8 with AVX2, 16 with AVX-512).
  unsigned SubGroupSize = 8;
};

// The sub-group sizes a kernel may require (CL_DEVICE_SUB_GROUP_SIZES_INTEL).
inline constexpr unsigned SupportedSubGroupSizes[] = {4, 8, 16, 32, 64};

enum class ModuleKind : uint8_t { Object, Library, Executable };

// A compiled (clCompileProgram), library (-create-library) or executable
// (clBuildProgram / clLinkProgram) module.
class Module {
public:
  virtual ~Module();
  virtual ModuleKind kind() const = 0;
  // Kernels of an executable (empty for objects and libraries).
  virtual const std::vector<KernelInfo> &kernels() const = 0;
  // The options it was built with.
  virtual const std::string &options() const = 0;
  // CL_PROGRAM_BUILD_GLOBAL_VARIABLE_TOTAL_SIZE: the bytes of the
  // program-scope variables in the global address space (file-scope and
  // static variables of an executable; 0 for objects and libraries).
  virtual uint64_t globalVariableTotalSize() const = 0;
  // CL_PROGRAM_BINARIES: a versioned container of bitcode and metadata,
  // portable across CPUs.
  virtual std::string toBinary() const = 0;
};

// Reads a binary written by Module::toBinary(); nullptr and Error set when it
// is not one (wrong magic, version, corrupt bitcode).
std::unique_ptr<Module> moduleFromBinary(std::string_view Bytes,
                                         std::string &Error);

struct Header {
  std::string Name; // the include name, e.g. "foo.h" or "dir/foo.h"
  std::string Source;
};

struct BuildResult {
  std::unique_ptr<Module> Output; // null on failure
  std::string Log;                // Clang's diagnostics, verbatim
  bool InvalidOptions = false;    // the options themselves were rejected
};

class Compiler {
public:
  explicit Compiler(DeviceTarget Target);
  ~Compiler();

  // Checks an option string without compiling (clBuildProgram,
  // clCompileProgram and clLinkProgram report CL_INVALID_*_OPTIONS).
  bool checkCompileOptions(std::string_view Options, std::string &Error) const;
  bool checkLinkOptions(std::string_view Options, std::string &Error) const;

  // Source to an Object module (clCompileProgram).
  BuildResult compile(std::string_view Source, std::string_view Options,
                      std::span<const Header> Headers) const;
  // Objects and libraries to an Executable, or a Library with
  // -create-library (clLinkProgram; clBuildProgram = compile + link).
  BuildResult link(std::span<const Module *const> Inputs,
                   std::string_view Options) const;
  // Source to an Executable (clBuildProgram).
  BuildResult build(std::string_view Source, std::string_view Options) const;

private:
  DeviceTarget Target;
};

// Native code for the kernels of an executable module on this CPU.
class NativeProgram {
public:
  virtual ~NativeProgram();
  virtual WorkGroupFunction lookup(std::string_view KernelName) const = 0;
};

// Where compiled native code is kept between processes. The driver fills it
// from its configuration (USMCL_CACHE, USMCL_CACHE_DIR).
struct CodeCache {
  bool Enabled = false;
  std::string Directory; // created if missing
};

// JIT-compiles an executable module (ORC LLJIT, -O3, host CPU and features),
// through the on-disk cache when enabled. nullptr and Error on failure.
std::unique_ptr<NativeProgram> createNativeProgram(const Module &Executable,
                                                   const CodeCache &Cache,
                                                   std::string &Error);

} // namespace kc
