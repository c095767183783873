// What a kernel's printf writes to stdout, captured: the process's standard
// output (file descriptor 1) goes to a temporary file while a capture is
// open. Nothing else may print in the meantime (no test assertions: Catch2
// reports to stdout), so a test enqueues and waits inside the capture and
// checks afterwards.
#pragma once

#include <unistd.h>

#include <cstdio>
#include <string>

namespace kernel_test {

class StdoutCapture {
public:
    StdoutCapture() {
        std::fflush(stdout);
        file_ = std::tmpfile();
        saved_ = dup(1);
        if (file_ && saved_ >= 0)
            dup2(fileno(file_), 1);
    }
    ~StdoutCapture() { finish(); }
    StdoutCapture(const StdoutCapture&) = delete;
    StdoutCapture& operator=(const StdoutCapture&) = delete;

    // Ends the capture (once) and returns everything written meanwhile.
    std::string finish() {
        if (!file_)
            return text_;
        std::fflush(stdout);
        if (saved_ >= 0) {
            dup2(saved_, 1);
            close(saved_);
            saved_ = -1;
        }
        std::rewind(file_);
        char chunk[4096];
        size_t n = 0;
        while ((n = std::fread(chunk, 1, sizeof chunk, file_)) > 0)
            text_.append(chunk, n);
        std::fclose(file_);
        file_ = nullptr;
        return text_;
    }

private:
    std::FILE* file_ = nullptr;
    int saved_ = -1;
    std::string text_;
};

} // namespace kernel_test
