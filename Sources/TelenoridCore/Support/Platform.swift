// The C library of the platform, imported once for the whole core and re-exported to the export layer
// (Sources/Telenorid), so that no other file names it. Linux has glibc (module Glibc); Android has bionic,
// which the Swift SDK for Android exposes as module Android. Bionic has everything the core calls, though
// getrandom(2) only from API level 28 (the minSdk of bindings/jni/android).
#if canImport(Glibc)
@_exported import Glibc
#elseif canImport(Android)
@_exported import Android
#elseif canImport(Darwin)
@_exported import Darwin
#else
#error("telenorid: no C library module for this platform")
#endif
