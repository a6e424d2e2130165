"use client";
import { type RefObject, useEffect, useRef } from "react";

/**
 * Files chosen in a server-rendered file input before React attached its change handler (a slow
 * device, a page still loading): the browser keeps them in the input, but no change event reaches
 * React. They are taken once, on mount, as a change would have taken them.
 */
export function useFilesPickedEarly(input: RefObject<HTMLInputElement | null>, take: (files: FileList) => void): void {
  const latest = useRef(take);
  latest.current = take;
  useEffect(() => {
    const el = input.current;
    if (!el?.files?.length) return;
    latest.current(el.files);
    el.value = "";
  }, [input]);
}
