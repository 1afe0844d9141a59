package dev.commitlog.bench.device;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DeviceWritesTest {

    /** /sys/block/vda/stat as this project's VM printed it (17 fields, kernel 6.18). */
    private static final String VDA =
            "  185849    12139  8743210   553275  9737050   133940 736815216  2522766        0  1058212  3582856"
                    + "   161162       74 565691080   111844  4390504   394970\n";

    @Test
    void writtenBytesAreTheWriteSectorsFieldInUnitsOf512() {
        assertEquals(736_815_216L * 512, BlockDeviceStat.bytesWritten(VDA));
    }

    @Test
    void anOldKernelsElevenFieldLineReadsTheSameField() {
        assertEquals(7L * 512, BlockDeviceStat.bytesWritten("1 2 3 4 5 6 7 8 9 10 11"));
    }

    @Test
    void aLineTooShortToHoldWriteSectorsIsRefused() {
        assertThrows(IllegalArgumentException.class, () -> BlockDeviceStat.bytesWritten("1 2 3 4 5 6"));
    }

    @Test
    void deviceNumbersDecodeAsGlibcEncodesThem() {
        assertEquals(254, DeviceWrites.major(0xfe00L));   // vda: 254:0
        assertEquals(0, DeviceWrites.minor(0xfe00L));
        // makedev(259, 300): minor past 255 and major past 255 use the high bits
        long dev = ((259L & 0xfffff000L) << 32) | ((259L & 0xfff) << 8) | ((300L & 0xffffff00L) << 12) | (300L & 0xff);
        assertEquals(259, DeviceWrites.major(dev));
        assertEquals(300, DeviceWrites.minor(dev));
        long big = ((0x12345L & 0xfffff000L) << 32) | ((0x12345L & 0xfff) << 8);
        assertEquals(0x12345, DeviceWrites.major(big));
    }

    @Test
    void theRatioIsDeviceBytesOverAppendedBytes() {
        assertEquals(2.0, DeviceWrites.perByte(2 << 20, 1 << 20));
        assertEquals(1.05, DeviceWrites.perByte(4_305, 4_100), 1e-3);
    }

    @Test
    void anUnknownReadingOrNothingAppendedGivesNoRatio() {
        assertTrue(Double.isNaN(DeviceWrites.perByte(DeviceWrites.UNKNOWN, 100)));
        assertTrue(Double.isNaN(DeviceWrites.perByte(4096, 0)));
        assertEquals(DeviceWrites.UNKNOWN, DeviceWrites.between(DeviceWrites.UNKNOWN, 10));
        assertEquals(DeviceWrites.UNKNOWN, DeviceWrites.between(10, DeviceWrites.UNKNOWN));
        assertEquals(90, DeviceWrites.between(10, 100));
    }

    @Test
    void noDeviceReadsUnknown() {
        assertEquals(DeviceWrites.UNKNOWN, DeviceWrites.NONE.bytesWritten());
    }

    @Test
    void aDirectoryOnABlockDeviceHasACounterThatMoves(@TempDir Path dir) {
        DeviceWrites device = DeviceWrites.of(dir);
        // tmpfs or overlay have no device: then there is nothing to read, and that must say so
        if (device.known()) {
            assertTrue(device.bytesWritten() > 0, device.describe());
        } else {
            assertEquals(DeviceWrites.UNKNOWN, device.bytesWritten());
        }
    }
}
