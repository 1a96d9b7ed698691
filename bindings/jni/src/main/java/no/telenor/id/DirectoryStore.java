package no.telenor.id;

import java.util.Objects;

/**
 * The library's file store ({@code telenorid_store_new_directory}): record {@code key} is the file
 * {@code <directory>/<key>.json}, with the lock files and guarantees of {@link AuthState#bindFile}. The
 * directory must exist when a state is bound.
 */
public final class DirectoryStore {
    private final String directory;

    /** The store of the files in {@code directory}; nothing is checked or created until a state is bound. */
    public DirectoryStore(@NonNull String directory) {
        this.directory = Objects.requireNonNull(directory, "directory");
    }

    /** The directory, as given. */
    public @NonNull String directory() {
        return directory;
    }

    @Override
    public String toString() {
        return "DirectoryStore(" + directory + ")";
    }
}
