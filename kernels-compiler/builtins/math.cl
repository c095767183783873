// Math functions (OpenCL C 3.0, 6.15.2).
OVERLOAD float sqrt(float X) { return __builtin_sqrtf(X); }
