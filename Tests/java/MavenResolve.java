import java.io.File;
import java.util.List;
import org.apache.maven.repository.internal.MavenRepositorySystemUtils;
import org.apache.maven.wagon.Wagon;
import org.apache.maven.wagon.providers.file.FileWagon;
import org.eclipse.aether.DefaultRepositorySystemSession;
import org.eclipse.aether.RepositorySystem;
import org.eclipse.aether.artifact.DefaultArtifact;
import org.eclipse.aether.collection.CollectRequest;
import org.eclipse.aether.connector.basic.BasicRepositoryConnectorFactory;
import org.eclipse.aether.graph.Dependency;
import org.eclipse.aether.impl.DefaultServiceLocator;
import org.eclipse.aether.repository.LocalRepository;
import org.eclipse.aether.repository.RemoteRepository;
import org.eclipse.aether.repository.RepositoryPolicy;
import org.eclipse.aether.resolution.ArtifactResult;
import org.eclipse.aether.resolution.DependencyRequest;
import org.eclipse.aether.spi.connector.RepositoryConnectorFactory;
import org.eclipse.aether.spi.connector.transport.TransporterFactory;
import org.eclipse.aether.transport.wagon.WagonConfigurator;
import org.eclipse.aether.transport.wagon.WagonProvider;
import org.eclipse.aether.transport.wagon.WagonTransporterFactory;

/**
 * Maven's own resolver (maven-resolver with maven-resolver-provider, the code `mvn` resolves dependencies
 * with; Debian's maven package has them in /usr/share/maven/lib) taking what a user's POM would ask of the
 * release in a file:// repository: {@code no.telenor.id:telenorid} at the version range {@code [0,)} (read
 * from maven-metadata.xml) and {@code no.telenor.id:telenorid:<version>:linux-x86_64} at runtime, with the
 * checksum policy "fail", into a new local repository. Maven's model builder reads and validates the POM on
 * the way. Prints one line per resolved file: {@code <groupId>:<artifactId>:<extension>[:<classifier>]:<version> <path>}.
 * Arguments: the repository directory, the version, the local repository directory. Used by
 * test_maven_release.py.
 */
public final class MavenResolve {
    /** The file:// transport of Maven's Wagon, without the Plexus container `mvn` builds around it. */
    static final class FileWagonProvider implements WagonProvider {
        @Override
        public Wagon lookup(String roleHint) {
            if (!"file".equals(roleHint)) {
                throw new IllegalArgumentException("only file:// here, not " + roleHint);
            }
            return new FileWagon();
        }

        @Override
        public void release(Wagon wagon) {
        }
    }

    /** Nothing to configure: the repository has no settings. */
    static final class NoConfiguration implements WagonConfigurator {
        @Override
        public void configure(Wagon wagon, Object configuration) {
        }
    }

    public static void main(String[] args) throws Exception {
        DefaultServiceLocator locator = MavenRepositorySystemUtils.newServiceLocator();
        locator.addService(RepositoryConnectorFactory.class, BasicRepositoryConnectorFactory.class);
        locator.addService(TransporterFactory.class, WagonTransporterFactory.class);
        locator.setServices(WagonProvider.class, new FileWagonProvider());
        locator.setServices(WagonConfigurator.class, new NoConfiguration());
        locator.setErrorHandler(new DefaultServiceLocator.ErrorHandler() {
            @Override
            public void serviceCreationFailed(Class<?> type, Class<?> impl, Throwable exception) {
                throw new IllegalStateException("no " + type.getName() + " (" + impl + ")", exception);
            }
        });
        RepositorySystem system = locator.getService(RepositorySystem.class);
        DefaultRepositorySystemSession session = MavenRepositorySystemUtils.newSession();
        session.setLocalRepositoryManager(system.newLocalRepositoryManager(session, new LocalRepository(args[2])));
        RepositoryPolicy policy = new RepositoryPolicy(true, RepositoryPolicy.UPDATE_POLICY_ALWAYS,
                                                       RepositoryPolicy.CHECKSUM_POLICY_FAIL);
        RemoteRepository release = new RemoteRepository.Builder("telenorid", "default", new File(args[0]).toURI().toString())
                .setReleasePolicy(policy).setSnapshotPolicy(new RepositoryPolicy(false, null, null)).build();
        CollectRequest collect = new CollectRequest();
        collect.addRepository(release);
        collect.addDependency(new Dependency(new DefaultArtifact("no.telenor.id:telenorid:[0,)"), "compile"));
        collect.addDependency(new Dependency(new DefaultArtifact("no.telenor.id:telenorid:jar:linux-x86_64:" + args[1]),
                                             "runtime"));
        List<ArtifactResult> results = system.resolveDependencies(session, new DependencyRequest(collect, null))
                .getArtifactResults();
        for (ArtifactResult result : results) {
            System.out.println(result.getArtifact() + " " + result.getArtifact().getFile());
        }
    }
}
