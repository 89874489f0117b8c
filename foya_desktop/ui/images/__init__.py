"""Images in replies: gathering a reply's images and the viewer that browses them."""
