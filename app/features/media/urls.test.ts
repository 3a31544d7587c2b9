import { describe, expect, it } from "vitest";
import { canonicalMediaUrl, isMediaFileName, mediaIdFromUrl, mediaLargeJpegUrl, mediaPreviewUrl, mediaSrcSet, mediaUrlForWidth } from "./urls";

describe("the media URL rule", () => {
  const id = "0b7f3c2e-1a2b-4c3d-9e8f-001122334455";
  const url = canonicalMediaUrl(id);

  it("derives every size from the canonical URL", () => {
    expect(url).toBe(`/media/${id}/800.webp`);
    expect(mediaIdFromUrl(url)).toBe(id);
    expect(mediaUrlForWidth(url, 400)).toBe(`/media/${id}/400.webp`);
    expect(mediaPreviewUrl(url)).toBe(`/media/${id}/og.jpg`);
    expect(mediaLargeJpegUrl(url)).toBe(`/media/${id}/1600.jpg`);
    expect(mediaIdFromUrl(mediaLargeJpegUrl(url))).toBe(id);
    expect(isMediaFileName("1600.jpg")).toBe(true);
    expect(isMediaFileName("800.jpg")).toBe(false);
    expect(mediaSrcSet(url, [400, 800])).toBe(`/media/${id}/400.webp 400w, /media/${id}/800.webp 800w`);
  });

  it("leaves other URLs alone", () => {
    expect(mediaIdFromUrl("https://example.com/a.jpg")).toBeNull();
    expect(mediaSrcSet("https://example.com/a.jpg")).toBeUndefined();
    expect(mediaPreviewUrl("/media/../../etc/passwd")).toBe("/media/../../etc/passwd");
  });
});
