//===- Frontend/SpirvTranslator.cpp - llvm-spirv as a subprocess ----------===//
//
// The translator seeks in its input, so a pipe does not do: the SPIR-V goes
// into a memfd that becomes the child's standard input, read as /dev/stdin;
// the bitcode comes back through another memfd (its standard output, written
// as /dev/stdout) and the diagnostics through a third (standard error).
// posix_spawn starts the child; the memfds are close-on-exec except for the
// copies the child gets as 0, 1 and 2, so concurrent translations never see
// each other's files.
//
//===----------------------------------------------------------------------===//
#include "Frontend/SpirvTranslator.h"

#include "kc/Spirv.h"
#include "kc_spirv_config.h"

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

extern char **environ;

namespace kc {

namespace {

// Closes the descriptor when it goes out of scope.
class Descriptor {
public:
  explicit Descriptor(int Fd) : Fd(Fd) {}
  Descriptor(const Descriptor &) = delete;
  Descriptor &operator=(const Descriptor &) = delete;
  ~Descriptor() {
    if (Fd >= 0)
      ::close(Fd);
  }
  int get() const { return Fd; }

private:
  int Fd;
};

bool writeAll(int Fd, const char *Data, size_t Size) {
  while (Size > 0) {
    ssize_t N = ::write(Fd, Data, Size);
    if (N < 0 && errno == EINTR)
      continue;
    if (N <= 0)
      return false;
    Data += N;
    Size -= static_cast<size_t>(N);
  }
  return true;
}

// The whole content of Fd, from its start.
std::string readAll(int Fd) {
  std::string Result;
  struct stat Info;
  if (::fstat(Fd, &Info) != 0 || Info.st_size <= 0)
    return Result;
  Result.resize(static_cast<size_t>(Info.st_size));
  size_t Done = 0;
  while (Done < Result.size()) {
    ssize_t N = ::pread(Fd, Result.data() + Done, Result.size() - Done,
                        static_cast<off_t>(Done));
    if (N < 0 && errno == EINTR)
      continue;
    if (N <= 0)
      break;
    Done += static_cast<size_t>(N);
  }
  Result.resize(Done);
  return Result;
}

std::string systemError(const char *What, int Error) {
  return std::string("error: ") + What + ": " + std::strerror(Error) + "\n";
}

} // namespace

std::string_view builtInSpirvTranslator() { return KC_LLVM_SPIRV_PATH; }

std::string resolveExecutable(const std::string &Path) {
  if (Path.empty())
    return {};
  if (Path.find('/') != std::string::npos) {
    struct stat Info;
    bool Usable = ::stat(Path.c_str(), &Info) == 0 && S_ISREG(Info.st_mode) &&
                  ::access(Path.c_str(), X_OK) == 0;
    return Usable ? Path : std::string();
  }
  const char *Search = std::getenv("PATH");
  std::string_view Dirs = Search ? Search : "";
  while (!Dirs.empty()) {
    size_t End = Dirs.find(':');
    std::string Dir(Dirs.substr(0, End));
    Dirs = End == std::string_view::npos ? "" : Dirs.substr(End + 1);
    if (Dir.empty())
      continue;
    std::string Found = resolveExecutable(Dir + "/" + Path);
    if (!Found.empty())
      return Found;
  }
  return {};
}

bool isExecutableFile(const std::string &Path) {
  return !resolveExecutable(Path).empty();
}

bool runSpirvTranslator(const std::string &Tool,
                        std::span<const uint32_t> Words, std::string &Bitcode,
                        std::string &Log) {
  Descriptor In(::memfd_create("usmcl-spirv-in", MFD_CLOEXEC));
  Descriptor Out(::memfd_create("usmcl-spirv-out", MFD_CLOEXEC));
  Descriptor Err(::memfd_create("usmcl-spirv-log", MFD_CLOEXEC));
  if (In.get() < 0 || Out.get() < 0 || Err.get() < 0) {
    Log += systemError("cannot create an in-memory file", errno);
    return false;
  }
  if (!writeAll(In.get(), reinterpret_cast<const char *>(Words.data()),
                Words.size_bytes()) ||
      ::lseek(In.get(), 0, SEEK_SET) != 0) {
    Log += systemError("cannot write the SPIR-V module", errno);
    return false;
  }

  posix_spawn_file_actions_t Actions;
  posix_spawn_file_actions_init(&Actions);
  posix_spawn_file_actions_adddup2(&Actions, In.get(), 0);
  posix_spawn_file_actions_adddup2(&Actions, Out.get(), 1);
  posix_spawn_file_actions_adddup2(&Actions, Err.get(), 2);
  std::vector<std::string> Args = {Tool,
                                   "-r",
                                   "--spirv-target-env=CL2.0",
                                   "--spirv-gen-kernel-arg-name-md",
                                   "/dev/stdin",
                                   "-o",
                                   "/dev/stdout"};
  std::vector<char *> Argv;
  for (std::string &A : Args)
    Argv.push_back(A.data());
  Argv.push_back(nullptr);
  pid_t Child = 0;
  int SpawnError = Tool.find('/') == std::string::npos
                       ? ::posix_spawnp(&Child, Tool.c_str(), &Actions, nullptr,
                                        Argv.data(), environ)
                       : ::posix_spawn(&Child, Tool.c_str(), &Actions, nullptr,
                                       Argv.data(), environ);
  posix_spawn_file_actions_destroy(&Actions);
  if (SpawnError != 0) {
    Log += systemError(("cannot run " + Tool).c_str(), SpawnError);
    return false;
  }
  int Status = 0;
  while (::waitpid(Child, &Status, 0) < 0) {
    if (errno == EINTR)
      continue;
    // The application ignores SIGCHLD or reaps every child itself: the exit
    // status is lost; the bitcode is checked when it is read.
    if (errno == ECHILD) {
      Status = 0;
      break;
    }
    Log += systemError("waiting for the SPIR-V translator", errno);
    return false;
  }
  std::string Diagnostics = readAll(Err.get());
  if (!Diagnostics.empty()) {
    Log += Diagnostics;
    if (Diagnostics.back() != '\n')
      Log += '\n';
  }
  if (WIFSIGNALED(Status)) {
    Log += "error: the SPIR-V translator (" + Tool + ") died of signal " +
           std::to_string(WTERMSIG(Status)) + "\n";
    return false;
  }
  if (!WIFEXITED(Status) || WEXITSTATUS(Status) != 0) {
    Log += "error: the SPIR-V translator (" + Tool + ") rejected the module";
    if (WIFEXITED(Status))
      Log += " (exit status " + std::to_string(WEXITSTATUS(Status)) + ")";
    Log += "\n";
    return false;
  }
  Bitcode = readAll(Out.get());
  if (Bitcode.empty()) {
    Log += "error: the SPIR-V translator wrote no bitcode\n";
    return false;
  }
  return true;
}

} // namespace kc
