#include "drivers.hpp"

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>

#include <sched.h>
#include <sys/wait.h>
#include <unistd.h>

extern char** environ;

namespace bench {

namespace fs = std::filesystem;

namespace {

// "0-3,6" to a CPU set; false on a malformed list.
bool parse_cpu_list(const std::string& list, cpu_set_t& set) {
    CPU_ZERO(&set);
    const char* cursor = list.c_str();
    while (*cursor) {
        char* end = nullptr;
        const long first = std::strtol(cursor, &end, 10);
        if (end == cursor || first < 0 || first >= CPU_SETSIZE)
            return false;
        long last = first;
        cursor = end;
        if (*cursor == '-') {
            last = std::strtol(cursor + 1, &end, 10);
            if (end == cursor + 1 || last < first || last >= CPU_SETSIZE)
                return false;
            cursor = end;
        }
        for (long cpu = first; cpu <= last; ++cpu)
            CPU_SET(static_cast<int>(cpu), &set);
        if (*cursor == ',')
            ++cursor;
        else if (*cursor != '\0')
            return false;
    }
    return CPU_COUNT(&set) > 0;
}

// KEY=VALUE lines of a peer.env file (blank lines and # comments skipped).
std::vector<std::string> read_environment_file(const fs::path& path) {
    std::vector<std::string> lines;
    std::ifstream input(path);
    std::string line;
    while (std::getline(input, line)) {
        if (line.empty() || line.front() == '#' || line.find('=') == std::string::npos)
            continue;
        lines.push_back(line);
    }
    return lines;
}

} // namespace

Drivers::Drivers(std::string program_name) : program_name_(std::move(program_name)) {}

Drivers::~Drivers() {
    std::error_code ignored;
    for (const fs::path& folder : temporary_)
        fs::remove_all(folder, ignored);
}

bool Drivers::take_option(std::string_view option, const char* value) {
    if (option == "--usmcl") {
        requested_.insert(requested_.begin(), {"usmcl", value});
    } else if (option == "--pocl") {
        if (std::string_view(value) != "none")
            requested_.emplace_back("PoCL", value);
    } else if (option == "--peer") {
        const std::string_view spec(value);
        const size_t equals = spec.find('=');
        if (equals == std::string_view::npos || equals == 0 || equals + 1 == spec.size()) {
            std::fprintf(stderr, "%s: --peer takes <name>=<icd dir or .icd>\n",
                         program_name_.c_str());
            std::exit(2);
        }
        requested_.emplace_back(std::string(spec.substr(0, equals)),
                                std::string(spec.substr(equals + 1)));
    } else if (option == "--cpus") {
        cpu_set_t set;
        if (!parse_cpu_list(value, set)) {
            std::fprintf(stderr, "%s: --cpus takes a CPU list such as 0 or 0-1\n",
                         program_name_.c_str());
            std::exit(2);
        }
        cpus_ = value;
    } else {
        return false;
    }
    return true;
}

void Drivers::resolve() {
    if (requested_.empty() || requested_.front().first != "usmcl") {
        std::fprintf(stderr, "%s: --usmcl is required\n", program_name_.c_str());
        std::exit(2);
    }
    for (const auto& [name, path] : requested_) {
        Driver driver{name, vendors_dir_for(path), {}};
        const fs::path folder =
            fs::is_directory(path) ? fs::path(path) : fs::path(path).parent_path();
        if (fs::is_regular_file(folder / "peer.env"))
            driver.environment = read_environment_file(folder / "peer.env");
        drivers_.push_back(std::move(driver));
    }
}

std::vector<size_t> Drivers::order(int round) const {
    std::vector<size_t> order;
    const size_t count = drivers_.size();
    // Round r starts with driver r mod n (with two drivers: ABBA order).
    for (size_t i = 0; i < count; ++i)
        order.push_back((static_cast<size_t>(round) + i) % count);
    return order;
}

fs::path Drivers::temporary_folder(const char* name) {
    std::string pattern = (fs::temp_directory_path() / name).string() + ".XXXXXX";
    if (mkdtemp(pattern.data()) == nullptr) {
        std::fprintf(stderr, "%s: mkdtemp: %s\n", program_name_.c_str(), std::strerror(errno));
        std::exit(2);
    }
    temporary_.emplace_back(pattern);
    return pattern;
}

// A folder for OCL_ICD_VENDORS that holds the given ICD only.
std::string Drivers::vendors_dir_for(const std::string& path) {
    if (fs::is_directory(path))
        return path;
    if (!fs::is_regular_file(path)) {
        std::fprintf(stderr, "%s: no ICD at %s\n", program_name_.c_str(), path.c_str());
        std::exit(2);
    }
    const fs::path folder = temporary_folder("bench_icd");
    fs::copy_file(path, folder / fs::path(path).filename());
    return folder.string();
}

std::vector<std::string> Drivers::environment_of(const Driver& driver,
                                                 const fs::path& cache_dir) const {
    std::vector<std::string> env_strings;
    for (char** var = environ; *var; ++var) {
        const std::string_view entry(*var);
        const bool replaced =
            entry.starts_with("OCL_ICD_VENDORS=") || entry.starts_with("OCL_ICD_FILENAMES=") ||
            (!cache_dir.empty() &&
             (entry.starts_with("USMCL_CACHE_DIR=") || entry.starts_with("POCL_CACHE_DIR=")));
        if (!replaced)
            env_strings.emplace_back(entry);
    }
    env_strings.push_back("OCL_ICD_VENDORS=" + driver.vendors_dir);
    if (!cache_dir.empty()) {
        env_strings.push_back("USMCL_CACHE_DIR=" + cache_dir.string());
        env_strings.push_back("POCL_CACHE_DIR=" + cache_dir.string());
    }
    for (const std::string& line : driver.environment) {
        const std::string key = line.substr(0, line.find('=') + 1);
        std::erase_if(env_strings,
                      [&](const std::string& entry) { return entry.starts_with(key); });
        env_strings.push_back(line);
    }
    return env_strings;
}

bool Drivers::restrict_to_cpus() const {
    if (cpus_.empty())
        return true;
    cpu_set_t cpus;
    return parse_cpu_list(cpus_, cpus) && sched_setaffinity(0, sizeof cpus, &cpus) == 0;
}

bool Drivers::run_child(const Driver& driver, const std::vector<std::string>& arguments,
                        const fs::path& cache_dir,
                        const std::function<void(std::string_view line)>& on_line) const {
    int pipe_fds[2];
    if (pipe(pipe_fds) != 0)
        return false;
    std::vector<std::string> env_strings = environment_of(driver, cache_dir);
    std::vector<char*> envp;
    for (std::string& entry : env_strings)
        envp.push_back(entry.data());
    envp.push_back(nullptr);
    const std::string self = fs::read_symlink("/proc/self/exe").string();
    std::vector<std::string> arg_strings = {self};
    arg_strings.insert(arg_strings.end(), arguments.begin(), arguments.end());
    std::vector<char*> argv;
    for (std::string& arg : arg_strings)
        argv.push_back(arg.data());
    argv.push_back(nullptr);
    std::fflush(stdout);
    std::fflush(stderr);
    const pid_t pid = fork();
    if (pid < 0) {
        close(pipe_fds[0]);
        close(pipe_fds[1]);
        return false;
    }
    if (pid == 0) {
        dup2(pipe_fds[1], STDOUT_FILENO);
        close(pipe_fds[0]);
        close(pipe_fds[1]);
        if (!restrict_to_cpus())
            _exit(126);
        execve(self.c_str(), argv.data(), envp.data());
        _exit(127);
    }
    close(pipe_fds[1]);
    FILE* input = fdopen(pipe_fds[0], "r");
    std::string line;
    char chunk[512];
    while (input && std::fgets(chunk, sizeof chunk, input)) {
        line += chunk;
        if (line.back() != '\n')
            continue;
        line.pop_back();
        on_line(line);
        line.clear();
    }
    if (!line.empty())
        on_line(line);
    if (input)
        std::fclose(input);
    else
        close(pipe_fds[0]);
    int status = 0;
    waitpid(pid, &status, 0);
    return WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

const char* driver_options_usage() {
    return "  --usmcl <icd dir or .icd>            usmcl (required)\n"
           "  --peer <name>=<icd dir or .icd>      a driver to compare with (repeatable)\n"
           "  --pocl <icd dir or .icd> | none      the same as --peer PoCL=...\n"
           "  --cpus <list>                        run the measurements on these CPUs only\n";
}

std::string format_value(double value) {
    char text[32];
    std::snprintf(text, sizeof text,
                  value >= 100  ? "%.0f"
                  : value >= 10 ? "%.1f"
                  : value >= 1  ? "%.2f"
                                : "%.3g",
                  value);
    return text;
}

} // namespace bench
