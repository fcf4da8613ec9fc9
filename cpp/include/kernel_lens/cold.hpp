#pragma once
/// KERNEL_LENS_COLD marks a function that runs once per call on small data (argument checks,
/// reports, the limits of section 12.2) inside a file compiled for speed: clang optimises it for
/// size instead, as it does the files that are cold as a whole (see CMakeLists.txt), and never
/// inlines it into a hot caller (where it would be compiled for speed, and copied per caller).
#if defined(__clang__)
#define KERNEL_LENS_COLD [[clang::minsize, gnu::noinline]]
#else
#define KERNEL_LENS_COLD
#endif

/// KERNEL_LENS_HOT_LOOP marks a per-row loop of the core that must keep its own optimisation
/// level: link-time inlining into its one caller would compile it as that caller is compiled (a
/// file optimised for size, such as attention_map.cpp, runs it several times slower).
#define KERNEL_LENS_HOT_LOOP [[gnu::noinline]]
