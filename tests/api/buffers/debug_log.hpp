// The driver's memory debug log (USMCL_DEBUG=memory) sent to a temporary
// file, for tests that check what the driver did: where instances were
// allocated, what each command used. Construct it as a global, before
// main(): before the loader loads the driver and it reads its configuration.
#pragma once

#include <catch2/catch.hpp>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <unistd.h>
#include <vector>

namespace buffer_test {

class DebugLog {
public:
    // prefix: the temporary file's name, before a unique suffix.
    explicit DebugLog(const std::string& prefix) {
        std::error_code error;
        const auto directory = std::filesystem::temp_directory_path(error);
        std::string name =
            (error ? std::filesystem::path("/tmp") : directory) / (prefix + "-XXXXXX");
        const int fd = mkstemp(name.data());
        if (fd < 0)
            return;
        close(fd);
        path_ = name;
        setenv("USMCL_DEBUG", "memory", 1);
        setenv("USMCL_DEBUG_FILE", path_.c_str(), 1);
    }
    ~DebugLog() {
        if (!path_.empty())
            std::remove(path_.c_str());
    }
    DebugLog(const DebugLog&) = delete;
    DebugLog& operator=(const DebugLog&) = delete;

    // Every line of the log so far.
    std::vector<std::string> lines() const {
        REQUIRE(!path_.empty());
        std::ifstream in(path_);
        std::vector<std::string> all;
        for (std::string line; std::getline(in, line);)
            all.push_back(line);
        return all;
    }

    // The domains in which instances of exactly size bytes were allocated,
    // in order ("instance of <size> bytes in domain <name>: <address>").
    std::vector<std::string> instances_of(size_t size) const {
        const std::string key = "instance of " + std::to_string(size) + " bytes in domain ";
        std::vector<std::string> domains;
        for (const std::string& line : lines()) {
            const size_t at = line.find(key);
            if (at == std::string::npos)
                continue;
            const size_t begin = at + key.size();
            domains.push_back(line.substr(begin, line.find(':', begin) - begin));
        }
        return domains;
    }

private:
    std::string path_;
};

} // namespace buffer_test
