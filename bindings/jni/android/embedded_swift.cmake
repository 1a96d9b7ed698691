# libtelenorid.so for one Android ABI, built from the Swift sources in Embedded Swift: the CMake form of
# scripts/embedded.sh (the one home of the Linux build; keep the two in step). Included by ../CMakeLists.txt
# when TELENORID_BUILD_LIBRARY is on; defines the target `telenorid` the bridge links.
#
# No Swift SDK for Android: swiftc compiles the two modules for the embedded standard library's bare-metal
# target of the ABI's CPU (the toolchain has no embedded stdlib for *-linux-android), with the NDK sysroot's
# bionic headers and Android's and Linux's predefined macros given by hand; the NDK's clang (this project's C
# compiler) compiles Sources/EmbeddedSupport and links everything. The library needs libc, libm, libcurl and
# libcrypto; no Swift runtime, no libc++.
#
# Inputs:
#   TELENORID_SWIFTC            swiftc of a toolchain with usr/lib/swift/embedded/ (checked with Swift 6.3.1)
#   TELENORID_ANDROID_DEPS_DIR  <ABI>/include (curl/curl.h, openssl/*.h) and <ABI>/lib/libcurl.so, libcrypto.so,
#                               libcurl and OpenSSL built for the ABI with the NDK (see ../README.md, Android)
#   TELENORID_SYSROOT_TRIPLE    the sysroot's per-triple include folder (default: the NDK's for the ABI)
#
# ABIs: arm64-v8a (aarch64-none-none-elf) and x86_64 (x86_64-unknown-linux-gnu, the host build's). The
# toolchain also has armv7-none-none-eabi and i686-unknown-none-elf embedded stdlibs, but the library has only
# been built for 64-bit targets (Sources/EmbeddedSupport/bridge_object.c asserts it): armeabi-v7a and x86 stop.
#
# CAVEAT, arm64-v8a: the embedded stdlib and the compiler's layouts for aarch64-none-none-elf are those of
# 64-bit non-Android targets (String's discriminator, Swift's spare bits and the runtime's "immortal" bit in the
# pointer's top byte). Android 11+ puts a tag in the top byte of every malloc'd pointer (heap pointer
# tagging), so the library can only run in a process with that tagging off: the app's manifest has
# android:allowNativeHeapPointerTagging="false" (android/src/main/AndroidManifest.xml declares it; the
# manifest merger carries it into the app), and MTE (android:memtagMode) stays off. See ../README.md.
#
# NOT RUN with an NDK: none is on the machines this was written on. Run on the host with Debian's arm64
# libraries standing in for the NDK's sysroot (../README.md, Android): test_api passed against the result.

set(TELENORID_SWIFTC "" CACHE FILEPATH "swiftc with the embedded standard library (Swift 6.3.1)")
if(NOT TELENORID_SWIFTC)
    find_program(telenorid_swiftc_found swiftc REQUIRED)
    set(TELENORID_SWIFTC "${telenorid_swiftc_found}")
endif()
set(TELENORID_ANDROID_DEPS_DIR "${CMAKE_CURRENT_SOURCE_DIR}/android/deps" CACHE PATH
    "Holds <ABI>/include and <ABI>/lib/libcurl.so, libcrypto.so built for Android")

if(ANDROID_ABI STREQUAL "arm64-v8a")
    set(telenorid_swift_target aarch64-none-none-elf)
    set(telenorid_ndk_triple aarch64-linux-android)
    # The bare-metal target predefines none of the OS macros the headers test.
    set(telenorid_os_macros -D__linux__ -D__linux -Dlinux -D__unix__ -D__unix -Dunix -D__gnu_linux__ -D__ELF__)
elseif(ANDROID_ABI STREQUAL "x86_64")
    set(telenorid_swift_target x86_64-unknown-linux-gnu)
    set(telenorid_ndk_triple x86_64-linux-android)
    set(telenorid_os_macros)
else()
    message(FATAL_ERROR "telenorid: no Embedded build for ${ANDROID_ABI}: only arm64-v8a and x86_64 (64-bit). "
        "The toolchain's armv7-none-none-eabi / i686-unknown-none-elf embedded stdlibs would need a 32-bit "
        "Sources/EmbeddedSupport/bridge_object.c and a first 32-bit build of the core; drop ${ANDROID_ABI} from "
        "abiFilters in android/build.gradle.")
endif()
set(TELENORID_SYSROOT_TRIPLE "${telenorid_ndk_triple}" CACHE STRING "The sysroot's include/<triple> folder")

# The API level: the NDK's toolchain file sets ANDROID_PLATFORM_LEVEL from minSdk.
if(ANDROID_PLATFORM_LEVEL)
    set(telenorid_api ${ANDROID_PLATFORM_LEVEL})
else()
    set(telenorid_api 28)
endif()
if(CMAKE_SYSROOT)
    set(telenorid_sysroot "${CMAKE_SYSROOT}")
else()
    set(telenorid_sysroot "/")
endif()
set(telenorid_deps "${TELENORID_ANDROID_DEPS_DIR}/${ANDROID_ABI}")
foreach(telenorid_dep curl crypto)
    if(NOT EXISTS "${telenorid_deps}/lib/lib${telenorid_dep}.so")
        message(FATAL_ERROR "telenorid: ${telenorid_deps}/lib/lib${telenorid_dep}.so is missing: libcurl and OpenSSL "
            "built for ${ANDROID_ABI} with the NDK go in TELENORID_ANDROID_DEPS_DIR/<ABI>/{include,lib} (README.md)")
    endif()
endforeach()

execute_process(COMMAND "${TELENORID_SWIFTC}" --version OUTPUT_VARIABLE telenorid_swift_version ERROR_VARIABLE telenorid_swift_version)
if(NOT telenorid_swift_version MATCHES "Swift version 6\\.3\\.1[^0-9]")
    message(WARNING "telenorid: the Embedded build is checked with Swift 6.3.1; ${TELENORID_SWIFTC} is: ${telenorid_swift_version}")
endif()
get_filename_component(telenorid_toolchain_bin "${TELENORID_SWIFTC}" DIRECTORY)
set(telenorid_unicode_tables
    "${telenorid_toolchain_bin}/../lib/swift/embedded/${telenorid_swift_target}/libswiftUnicodeDataTables.a")

# The C headers, read by swiftc's clang for the bare-metal target: bionic's from the sysroot, Android's and
# Linux's macros by hand (clang predefines __ANDROID__ and __ANDROID_API__ only for *-linux-android triples).
set(telenorid_cc_flags --sysroot=${telenorid_sysroot} -D__ANDROID__ -D__ANDROID_API__=${telenorid_api}
    -D__ANDROID_MIN_SDK_VERSION__=${telenorid_api} ${telenorid_os_macros}
    -isystem "${telenorid_deps}/include"
    -isystem "${telenorid_sysroot}/usr/include/${TELENORID_SYSROOT_TRIPLE}" -isystem "${telenorid_sysroot}/usr/include")
set(telenorid_xcc)
foreach(telenorid_flag ${telenorid_cc_flags})
    list(APPEND telenorid_xcc -Xcc "${telenorid_flag}")
endforeach()

set(telenorid_src "${TELENORID_ROOT}/Sources")
set(telenorid_obj "${CMAKE_CURRENT_BINARY_DIR}/telenorid-embedded")
file(MAKE_DIRECTORY "${telenorid_obj}")
set(telenorid_swift_flags -target ${telenorid_swift_target} -swift-version 6 -enable-experimental-feature Embedded
    -wmo -parse-as-library -Osize -Xcc -fPIC -Xfrontend -disable-reflection-metadata
    -I "${telenorid_src}/CPlatform" -I "${telenorid_src}/COpenSSL" -I "${telenorid_src}/CCurl"
    -I "${TELENORID_INCLUDE_DIR}" -I "${telenorid_obj}" ${telenorid_xcc})
file(GLOB_RECURSE telenorid_core_sources CONFIGURE_DEPENDS "${telenorid_src}/TelenoridCore/*.swift")
file(GLOB_RECURSE telenorid_export_sources CONFIGURE_DEPENDS "${telenorid_src}/Telenorid/*.swift")
list(SORT telenorid_core_sources)
list(SORT telenorid_export_sources)
file(GLOB telenorid_c_inputs CONFIGURE_DEPENDS "${telenorid_src}/CPlatform/*" "${telenorid_src}/COpenSSL/*"
    "${telenorid_src}/CCurl/*")
list(APPEND telenorid_c_inputs "${TELENORID_INCLUDE_DIR}/telenorid.h")

# Each module twice, as in scripts/embedded.sh: its interface, then its object with a section per function
# (swiftc drops -function-sections when -emit-module is in the same invocation).
add_custom_command(OUTPUT "${telenorid_obj}/TelenoridCore.swiftmodule"
    COMMAND "${TELENORID_SWIFTC}" ${telenorid_swift_flags} -module-name TelenoridCore -emit-module
        -emit-module-path "${telenorid_obj}/TelenoridCore.swiftmodule" ${telenorid_core_sources}
    DEPENDS ${telenorid_core_sources} ${telenorid_c_inputs}
    COMMENT "swiftc (Embedded, ${telenorid_swift_target}): TelenoridCore module" VERBATIM)
add_custom_command(OUTPUT "${telenorid_obj}/TelenoridCore.o"
    COMMAND "${TELENORID_SWIFTC}" ${telenorid_swift_flags} -module-name TelenoridCore -c
        -o "${telenorid_obj}/TelenoridCore.o" -Xfrontend -function-sections ${telenorid_core_sources}
    DEPENDS ${telenorid_core_sources} ${telenorid_c_inputs}
    COMMENT "swiftc (Embedded, ${telenorid_swift_target}): TelenoridCore.o" VERBATIM)
add_custom_command(OUTPUT "${telenorid_obj}/Telenorid.o"
    COMMAND "${TELENORID_SWIFTC}" ${telenorid_swift_flags} -module-name Telenorid -c
        -o "${telenorid_obj}/Telenorid.o" -Xfrontend -function-sections ${telenorid_export_sources}
    DEPENDS ${telenorid_export_sources} ${telenorid_c_inputs} "${telenorid_obj}/TelenoridCore.swiftmodule"
    COMMENT "swiftc (Embedded, ${telenorid_swift_target}): Telenorid.o" VERBATIM)

# What the embedded standard library asks of its platform, or gets wrong, compiled by the NDK's clang.
file(GLOB telenorid_support_sources CONFIGURE_DEPENDS "${telenorid_src}/EmbeddedSupport/*.c")
add_library(telenorid_embedded_support OBJECT ${telenorid_support_sources})
set_target_properties(telenorid_embedded_support PROPERTIES POSITION_INDEPENDENT_CODE ON C_STANDARD 11)
target_compile_options(telenorid_embedded_support PRIVATE -O2 -Wall -Wextra -Werror)

foreach(telenorid_dep curl crypto)
    add_library(telenorid_${telenorid_dep} SHARED IMPORTED)
    set_target_properties(telenorid_${telenorid_dep} PROPERTIES
        IMPORTED_LOCATION "${telenorid_deps}/lib/lib${telenorid_dep}.so" IMPORTED_NO_SONAME FALSE)
endforeach()

# The link, as scripts/embedded.sh's: only the C API exported, the old names as aliases, every reference
# resolved (-z defs), unused sections dropped, identical ones folded; 16 KB pages (Android 15+). CMake gives
# an unversioned SHARED library the SONAME libtelenorid.so, the name an APK can carry.
add_library(telenorid SHARED "${telenorid_obj}/TelenoridCore.o" "${telenorid_obj}/Telenorid.o"
    $<TARGET_OBJECTS:telenorid_embedded_support>)
set_source_files_properties("${telenorid_obj}/TelenoridCore.o" "${telenorid_obj}/Telenorid.o" PROPERTIES
    EXTERNAL_OBJECT TRUE GENERATED TRUE)
set_target_properties(telenorid PROPERTIES LINKER_LANGUAGE C
    LINK_DEPENDS "${telenorid_src}/Telenorid/exports.map;${telenorid_src}/Telenorid/old_names.ld")
target_include_directories(telenorid INTERFACE "${TELENORID_INCLUDE_DIR}")
target_link_options(telenorid PRIVATE -Wl,--gc-sections -Wl,--icf=all -Wl,-z,defs
    "-Wl,--version-script=${telenorid_src}/Telenorid/exports.map" -Wl,-z,max-page-size=16384)
target_link_libraries(telenorid PRIVATE "${telenorid_unicode_tables}" "${telenorid_src}/Telenorid/old_names.ld"
    telenorid_curl telenorid_crypto m)
