/* swift_deallocPartialClassInstance for the Embedded Swift runtime, which the library defines over the
 * embedded standard library's own.
 *
 * A class initializer that throws after the object is allocated hands the object to this runtime entry,
 * which must destroy the stored properties of the subclasses the initializer never reached and then free
 * the object (the full runtime's HeapObject.cpp does both). The embedded standard library of Swift 6.3
 * does the first and not the second, so every failed `init` of a class leaked its object: 28 blocks in one
 * run of Tests/c/test_api under valgrind (a configuration refused, a listener that cannot bind...). Its
 * definition is weak in every Swift object; this one is strong, so the linker takes it.
 *
 * The layouts are the embedded runtime's: an object begins with its class metadata pointer; class
 * metadata begins with the superclass pointer, then the destructor, then the ivar destroyer (NULL when
 * the class has none). The ivar destroyer is a Swift function taking the object as `self`. */
#include <stddef.h>

struct telenorid_embedded_class {
    const struct telenorid_embedded_class *superclass;
    void (*destroy)(void);
    __attribute__((swiftcall)) void (*destroy_ivars)(__attribute__((swift_context)) void *object);
};

void swift_deallocClassInstance(void *object, size_t allocated_size, size_t allocated_align_mask);

void swift_deallocPartialClassInstance(void *object, const struct telenorid_embedded_class *metadata,
                                       size_t allocated_size, size_t allocated_align_mask) {
    const struct telenorid_embedded_class *class_of_object = *(const struct telenorid_embedded_class **)object;
    for (const struct telenorid_embedded_class *class = class_of_object; class && class != metadata;
         class = class->superclass) {
        if (class->destroy_ivars) class->destroy_ivars(object);
    }
    swift_deallocClassInstance(object, allocated_size, allocated_align_mask);
}
