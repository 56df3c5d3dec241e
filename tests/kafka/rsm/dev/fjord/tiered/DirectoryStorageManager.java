package dev.fjord.tiered;

import java.io.IOException;
import java.io.InputStream;
import java.io.RandomAccessFile;
import java.io.ByteArrayInputStream;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.StandardCopyOption;
import java.util.Map;
import java.util.Optional;

import org.apache.kafka.server.log.remote.storage.LogSegmentData;
import org.apache.kafka.server.log.remote.storage.RemoteLogSegmentMetadata;
import org.apache.kafka.server.log.remote.storage.RemoteResourceNotFoundException;
import org.apache.kafka.server.log.remote.storage.RemoteStorageException;
import org.apache.kafka.server.log.remote.storage.RemoteStorageManager;

/**
 * A RemoteStorageManager over a local directory, so that the Apache Kafka 4.4 reference broker
 * tiers in fjord's differential test (Maven Central serves no open storage manager for 4.4:
 * Kafka's own LocalTieredStorage is in a test jar it does not publish). Test code only: one
 * file per segment file, named by segment id, under {@code rsm.config.dir}.
 */
public class DirectoryStorageManager implements RemoteStorageManager {
    private Path root;

    @Override
    public void configure(Map<String, ?> configs) {
        Object dir = configs.get("dir");
        if (dir == null) {
            throw new IllegalArgumentException("rsm.config.dir is required");
        }
        root = Paths.get(dir.toString());
    }

    private Path file(RemoteLogSegmentMetadata m, String suffix) {
        return root.resolve(m.remoteLogSegmentId().id().toString() + "." + suffix);
    }

    private static String suffix(IndexType t) {
        switch (t) {
            case OFFSET: return "index";
            case TIMESTAMP: return "timeindex";
            case PRODUCER_SNAPSHOT: return "snapshot";
            case TRANSACTION: return "txnindex";
            default: return "leader-epoch-checkpoint";
        }
    }

    @Override
    public Optional<RemoteLogSegmentMetadata.CustomMetadata> copyLogSegmentData(
            RemoteLogSegmentMetadata m, LogSegmentData d) throws RemoteStorageException {
        try {
            Files.createDirectories(root);
            Files.copy(d.logSegment(), file(m, "log"), StandardCopyOption.REPLACE_EXISTING);
            Files.copy(d.offsetIndex(), file(m, "index"), StandardCopyOption.REPLACE_EXISTING);
            Files.copy(d.timeIndex(), file(m, "timeindex"), StandardCopyOption.REPLACE_EXISTING);
            if (d.transactionIndex().isPresent()) {
                Files.copy(d.transactionIndex().get(), file(m, "txnindex"), StandardCopyOption.REPLACE_EXISTING);
            }
            Files.copy(d.producerSnapshotIndex(), file(m, "snapshot"), StandardCopyOption.REPLACE_EXISTING);
            ByteBuffer epochs = d.leaderEpochIndex().duplicate();
            byte[] bytes = new byte[epochs.remaining()];
            epochs.get(bytes);
            Files.write(file(m, "leader-epoch-checkpoint"), bytes);
            return Optional.empty();
        } catch (IOException e) {
            throw new RemoteStorageException(e);
        }
    }

    private InputStream range(Path p, long from, long toInclusive) throws RemoteStorageException {
        if (!Files.exists(p)) {
            throw new RemoteResourceNotFoundException("no " + p);
        }
        try (RandomAccessFile f = new RandomAccessFile(p.toFile(), "r")) {
            long end = Math.min(toInclusive + 1, f.length());
            byte[] out = new byte[(int) Math.max(0, end - from)];
            f.seek(from);
            f.readFully(out);
            return new ByteArrayInputStream(out);
        } catch (IOException e) {
            throw new RemoteStorageException(e);
        }
    }

    @Override
    public InputStream fetchLogSegment(RemoteLogSegmentMetadata m, int start) throws RemoteStorageException {
        return range(file(m, "log"), start, Long.MAX_VALUE - 1);
    }

    @Override
    public InputStream fetchLogSegment(RemoteLogSegmentMetadata m, int start, int end) throws RemoteStorageException {
        return range(file(m, "log"), start, end);
    }

    @Override
    public InputStream fetchIndex(RemoteLogSegmentMetadata m, IndexType t) throws RemoteStorageException {
        return range(file(m, suffix(t)), 0, Long.MAX_VALUE - 1);
    }

    @Override
    public void deleteLogSegmentData(RemoteLogSegmentMetadata m) throws RemoteStorageException {
        try {
            for (String s : new String[] {"log", "index", "timeindex", "txnindex", "snapshot", "leader-epoch-checkpoint"}) {
                Files.deleteIfExists(file(m, s));
            }
        } catch (IOException e) {
            throw new RemoteStorageException(e);
        }
    }

    @Override
    public void close() {
    }
}
