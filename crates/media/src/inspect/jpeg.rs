//! Whether a JPEG reaches its end. The decoder fills what is missing from a cut file with grey, as
//! browsers do, so a half-uploaded photo would pass: its segments are walked to the end-of-image
//! marker instead. Bytes after that marker (a phone's motion-photo video, a second picture) are
//! not looked at.

const EOI: u8 = 0xd9;
const SOS: u8 = 0xda;

/// True when the segments after the start-of-image marker lead to an end-of-image marker.
pub(super) fn reaches_its_end(bytes: &[u8]) -> bool {
    let mut at = 2;
    loop {
        // A marker: 0xFF (fill bytes may repeat it, stray bytes before it are skipped) and a code.
        let Some(skip) = bytes
            .get(at..)
            .and_then(|rest| rest.iter().position(|&byte| byte == 0xff))
        else {
            return false;
        };
        at += skip + 1;
        match bytes.get(at) {
            None => return false,
            Some(0xff) => continue,
            Some(&EOI) => return true,
            // Markers without a segment: TEM and restarts.
            Some(0x01 | 0xd0..=0xd7) => at += 1,
            Some(&marker) => {
                let Some(&[high, low]) = bytes.get(at + 1..at + 3) else {
                    return false;
                };
                at += 1 + usize::from(u16::from_be_bytes([high, low]));
                if marker == SOS {
                    let Some(end) = end_of_scan(bytes, at) else {
                        return false;
                    };
                    at = end;
                }
            }
        }
    }
}

/// Where a scan's entropy-coded data ends: the first 0xFF that starts a marker, other than a
/// stuffed 0xFF00 or a restart marker.
fn end_of_scan(bytes: &[u8], mut at: usize) -> Option<usize> {
    loop {
        at += bytes.get(at..)?.iter().position(|&byte| byte == 0xff)?;
        match bytes.get(at + 1)? {
            0x00 | 0xd0..=0xd7 => at += 2,
            0xff => at += 1,
            _ => return Some(at),
        }
    }
}
