import { describe, expect, it } from "vitest";
import { normalizeTourLink, parseVideoLink, videoEmbedUrl } from "./media-links";

describe("video and tour links (issue 22)", () => {
  it("reads every usual YouTube link into one canonical address", () => {
    for (const link of [
      "https://www.youtube.com/watch?v=dQw4w9WgXcQ&t=42s",
      "youtube.com/watch?v=dQw4w9WgXcQ",
      "https://m.youtube.com/watch?v=dQw4w9WgXcQ",
      "https://youtu.be/dQw4w9WgXcQ?si=abc",
      "https://www.youtube.com/shorts/dQw4w9WgXcQ",
      "https://www.youtube.com/embed/dQw4w9WgXcQ",
      "http://www.youtube.com/live/dQw4w9WgXcQ",
    ]) {
      expect(parseVideoLink(link), link).toEqual({ provider: "youtube", id: "dQw4w9WgXcQ", hash: null, url: "https://www.youtube.com/watch?v=dQw4w9WgXcQ" });
    }
  });

  it("reads Vimeo links, keeping an unlisted video's hash", () => {
    expect(parseVideoLink("https://vimeo.com/76979871")).toMatchObject({ provider: "vimeo", id: "76979871", url: "https://vimeo.com/76979871" });
    expect(parseVideoLink("https://vimeo.com/76979871/8272103f6e")?.url).toBe("https://vimeo.com/76979871/8272103f6e");
    const player = parseVideoLink("https://player.vimeo.com/video/76979871?h=8272103f6e")!;
    expect(player.url).toBe("https://vimeo.com/76979871/8272103f6e");
    expect(videoEmbedUrl(player)).toBe("https://player.vimeo.com/video/76979871?h=8272103f6e");
    expect(videoEmbedUrl(parseVideoLink("youtu.be/dQw4w9WgXcQ")!)).toBe("https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ");
  });

  it("refuses other hosts, pages that are no video, and anything but the web", () => {
    for (const link of [
      "https://www.youtube.com/@corretor",
      "https://www.youtube.com/watch?v=short",
      "https://youtube.com.evil.example/watch?v=dQw4w9WgXcQ",
      "https://vimeo.com/channels/staffpicks",
      "https://user:pw@youtube.com/watch?v=dQw4w9WgXcQ",
      "https://youtube.com:8443/watch?v=dQw4w9WgXcQ",
      "javascript:alert(1)",
      "ftp://youtube.com/watch?v=dQw4w9WgXcQ",
      "https://www.you tube.com/watch?v=dQw4w9WgXcQ",
      `https://www.youtube.com/watch?v=dQw4w9WgXcQ&x=${"a".repeat(500)}`,
    ]) {
      expect(parseVideoLink(link), link).toBeNull();
    }
  });

  it("accepts tours on the listed hosts only, stored as https without a fragment", () => {
    expect(normalizeTourLink("my.matterport.com/show/?m=SxQL3iGyoDo")).toBe("https://my.matterport.com/show/?m=SxQL3iGyoDo");
    expect(normalizeTourLink("http://kuula.co/share/collection/7lVLq#x")).toBe("https://kuula.co/share/collection/7lVLq");
    expect(normalizeTourLink("https://app.cloudpano.com/tours/abc")).toBe("https://app.cloudpano.com/tours/abc");
    expect(normalizeTourLink("https://momento360.com/e/u/abc")).toBe("https://momento360.com/e/u/abc");
    expect(normalizeTourLink("https://matterport.com/pt/discover")).toBeNull();
    expect(normalizeTourLink("https://kuula.co")).toBeNull();
    expect(normalizeTourLink("https://www.youtube.com/watch?v=dQw4w9WgXcQ")).toBeNull();
    expect(normalizeTourLink("data:text/html,<script>")).toBeNull();
  });
});
