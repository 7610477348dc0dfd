// How the preload library exports a C function. Everything else in it is hidden
// (CXX_VISIBILITY_PRESET hidden in CMakeLists.txt), so the functions marked with this are the
// library's whole ABI: the interposed POSIX and stdio calls and the exit and signal hooks.
//
// Hard rule: this macro only exports; it never holds code.
#pragma once

#define PROVIO_EXPORT extern "C" __attribute__((visibility("default")))
