// The kernels of a run: one per function of one type, built for the device.
#include "kernels.hpp"

#include <sstream>

namespace mathconf {

std::string g_build_options;

cl_program build_program(const Device& dev, const std::string& source, std::string& log) {
    const char* text = source.c_str();
    cl_int error = CL_SUCCESS;
    cl_program program = clCreateProgramWithSource(dev.context, 1, &text, nullptr, &error);
    if (error != CL_SUCCESS) {
        log = "clCreateProgramWithSource: " + std::to_string(error);
        return nullptr;
    }
    error = clBuildProgram(program, 1, &dev.device, g_build_options.c_str(), nullptr, nullptr);
    if (error != CL_SUCCESS) {
        size_t size = 0;
        clGetProgramBuildInfo(program, dev.device, CL_PROGRAM_BUILD_LOG, 0, nullptr, &size);
        log.assign(size, '\0');
        clGetProgramBuildInfo(program, dev.device, CL_PROGRAM_BUILD_LOG, size, log.data(), nullptr);
        while (!log.empty() && (log.back() == '\0' || log.back() == '\n'))
            log.pop_back();
        if (log.empty())
            log = "clBuildProgram: " + std::to_string(error);
        clReleaseProgram(program);
        return nullptr;
    }
    return program;
}

std::string kernel_name(const Function& f) {
    return "k_" + f.name;
}

size_t g_vector_width = 1;

namespace {

std::string kernel_source(const Function& f) {
    std::ostringstream s;
    s << "  kernel void " << kernel_name(f)
      << "(global const T* A, global const T* B, global const T* C, global const int* N,\n"
         "      global T* R, global T* R2, global int* RI) {\n"
         "    size_t i = get_global_id(0);\n"
         "    V a = LOAD(i, A), b = LOAD(i, B), c = LOAD(i, C);\n"
         "    VI n = LOAD(i, N);\n";
    switch (f.shape) {
    case Shape::i_t: s << "    STORE(" << f.expression << ", i, RI);\n"; break;
    case Shape::t_tpt:
        s << "    V p;\n    STORE(" << f.expression << ", i, R);\n    STORE(p, i, R2);\n";
        break;
    case Shape::t_tpi:
    case Shape::t_ttpi:
        s << "    VI p;\n    STORE(" << f.expression << ", i, R);\n    STORE(p, i, RI);\n";
        break;
    default: s << "    STORE(" << f.expression << ", i, R);\n"; break;
    }
    s << "  }\n";
    return s.str();
}

} // namespace

std::string program_source(const std::vector<const Function*>& list, const std::string& type) {
    // nan's argument: the unsigned integer of the type's size.
    const std::string code = type == "double" ? "ulong" : type == "half" ? "ushort" : "uint";
    std::string source;
    if (type == "double")
        source += "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n";
    if (type == "half")
        source += "#pragma OPENCL EXTENSION cl_khr_fp16 : enable\n";
    source += "typedef " + type + " T;\n";
    if (g_vector_width == 1) {
        source += "typedef T V;\ntypedef int VI;\n#define NANCODE(x) as_" + code +
                  "(x)\n#define LOAD(i, p) (p)[i]\n#define STORE(v, i, p) ((p)[i] = (v))\n";
    } else {
        const std::string w = std::to_string(g_vector_width);
        source += "typedef " + type + w + " V;\ntypedef int" + w + " VI;\n#define NANCODE(x) as_" +
                  code + w + "(x)\n#define LOAD(i, p) vload" + w +
                  "(i, p)\n#define STORE(v, i, p) vstore" + w + "((v), i, p)\n";
    }
    for (const Function* f : list)
        source += kernel_source(*f);
    return source;
}

} // namespace mathconf
