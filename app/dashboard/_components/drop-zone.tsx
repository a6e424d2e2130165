"use client";
import { type DragEvent, useRef, useState } from "react";
import { useFilesPickedEarly } from "@/app/_components/files-picked-early";
import { cx } from "@/app/_components/ui";

/** Where files come in: dropped on it, or picked with the file chooser. */
export function DropZone({ onFiles }: { onFiles: (list: FileList) => void }) {
  const [dragging, setDragging] = useState(false);
  const input = useRef<HTMLInputElement>(null);
  useFilesPickedEarly(input, onFiles);

  function onDrop(e: DragEvent) {
    e.preventDefault();
    setDragging(false);
    if (e.dataTransfer.files.length) onFiles(e.dataTransfer.files);
  }

  return (
    <div
      onDragEnter={(e) => {
        e.preventDefault();
        setDragging(true);
      }}
      onDragOver={(e) => {
        e.preventDefault();
        e.dataTransfer.dropEffect = "copy";
      }}
      onDragLeave={(e) => {
        if (!e.currentTarget.contains(e.relatedTarget as Node | null)) setDragging(false);
      }}
      onDrop={onDrop}
      className={cx(
        "rounded-2xl border-2 border-dashed px-5 py-10 text-center transition-colors sm:px-10",
        dragging ? "border-teal-700 bg-teal-50" : "border-stone-300 bg-white",
      )}
    >
      <div aria-hidden className="mx-auto mb-3 grid h-12 w-12 place-items-center rounded-full bg-teal-100 text-teal-800">
        <svg
          viewBox="0 0 24 24"
          fill="none"
          stroke="currentColor"
          strokeWidth={1.8}
          strokeLinecap="round"
          strokeLinejoin="round"
          className="h-6 w-6"
        >
          <path d="M12 16V4m0 0-4.5 4.5M12 4l4.5 4.5M4 15v3a2 2 0 0 0 2 2h12a2 2 0 0 0 2-2v-3" />
        </svg>
      </div>
      <p className="text-lg font-medium">Drop files here to protect them</p>
      <p className="mt-1 text-sm text-stone-700">
        Any type, any size, several at once. Large videos are fine: they are read in small pieces.
      </p>
      <div className="mx-auto mt-5 max-w-sm text-left">
        <label htmlFor="choose-files" className="block text-sm font-medium text-stone-800">
          Choose files
        </label>
        <input
          id="choose-files"
          ref={input}
          type="file"
          multiple
          onChange={(e) => {
            if (e.target.files) onFiles(e.target.files);
            e.target.value = "";
          }}
          className="mt-1 block w-full rounded-lg border border-stone-300 bg-white text-sm text-stone-700 file:mr-3 file:cursor-pointer file:rounded-l-lg file:border-0 file:bg-teal-800 file:px-4 file:py-2 file:text-sm file:font-medium file:text-white hover:file:bg-teal-900 focus-visible:outline focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-teal-700"
        />
      </div>
    </div>
  );
}
